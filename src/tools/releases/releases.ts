// Releases (lib/api/releases.rb): list, get by tag name, create (of an existing tag, or of a new one
// made at ref), update, delete (the tag stays). Milestones are given by title; asset links are
// checked as create_release_link checks them, before anything is sent.
import { Type } from '@sinclair/typebox';
import { invalidArgument } from '../errors';
import { isoDateTime, listOf, longText, pagination, projectId, refName, shortName } from '../params';
import { restTool } from '../rest';
import { assetUrl, checkLink, directAssetPath, linkType, type LinkArgs } from './links';

const RELEASES = '/projects/{project_id}/releases';
const RELEASE = `${RELEASES}/{tag_name}`;
const milestones = (description: string) => Type.Optional(listOf(shortName(), description));

const listReleases = restTool({
  name: 'list_releases',
  title: 'List releases',
  description: "List a project's releases, newest released_at first.",
  group: 'releases',
  mode: 'read',
  record: 'release',
  input: Type.Object(
    {
      project_id: projectId(),
      order_by: Type.Optional(Type.Union([Type.Literal('released_at'), Type.Literal('created_at')])),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  rest: { method: 'GET', path: RELEASES, list: true },
});

const getRelease = restTool({
  name: 'get_release',
  title: 'Get release',
  description: 'Get the release of a tag: notes, commit, milestones, asset links.',
  group: 'releases',
  mode: 'read',
  record: 'release',
  input: Type.Object({ project_id: projectId(), tag_name: refName() }, { additionalProperties: false }),
  rest: { method: 'GET', path: RELEASE },
});

const link = Type.Object({ name: shortName(), url: assetUrl(), direct_asset_path: directAssetPath(), link_type: linkType }, { additionalProperties: false });

function checkLinks(links: LinkArgs[] | undefined): void {
  const seen = { name: new Set<string>(), url: new Set<string>() };
  links?.forEach((l, i) => {
    const label = (field: string) => `assets.links.${i}.${field}`;
    checkLink(l, label);
    for (const field of ['name', 'url'] as const) {
      if (seen[field].has(l[field])) throw invalidArgument(label(field), `repeats an earlier link's ${field}; GitLab wants each unique in a release`);
      seen[field].add(l[field]);
    }
  });
}

const createRelease = restTool({
  name: 'create_release',
  title: 'Create release',
  description: 'Create the release of tag_name.',
  group: 'releases',
  mode: 'write',
  record: 'release',
  input: Type.Object(
    {
      project_id: projectId(),
      tag_name: refName(),
      name: Type.Optional(shortName({ description: 'Default: tag_name' })),
      description: Type.Optional(longText()),
      ref: Type.Optional(refName('Where a new tag goes')),
      tag_message: Type.Optional(longText({ description: 'Annotates a new tag' })),
      milestones: milestones('Project milestone titles'),
      assets: Type.Optional(Type.Object({ links: Type.Optional(listOf(link)) }, { additionalProperties: false, description: 'Asset links' })),
      released_at: isoDateTime('Past: a historical release; future: an upcoming one.'),
    },
    { additionalProperties: false },
  ),
  check: (args) => checkLinks(args.assets?.links),
  rest: { method: 'POST', path: RELEASES },
});

const EDITABLE = ['name', 'description', 'milestones', 'released_at'] as const;

const updateRelease = restTool({
  name: 'update_release',
  title: 'Update release',
  description: 'Update the release of tag_name.',
  group: 'releases',
  mode: 'write',
  idempotent: true,
  record: 'release',
  input: Type.Object(
    {
      project_id: projectId(),
      tag_name: refName(),
      name: Type.Optional(shortName({ description: 'Release title' })),
      description: Type.Optional(longText()),
      milestones: Type.Optional(Type.Array(shortName(), { maxItems: 100, description: 'Titles, replacing; [] clears' })),
      released_at: isoDateTime(),
    },
    { additionalProperties: false },
  ),
  check(args: Record<string, unknown>) {
    if (!EDITABLE.some((name) => args[name] !== undefined)) throw invalidArgument('arguments', `give at least one of ${EDITABLE.join(', ')}`);
  },
  rest: { method: 'PUT', path: RELEASE },
});

const deleteRelease = restTool({
  name: 'delete_release',
  title: 'Delete release',
  description: 'Delete the release of tag_name; the tag stays (delete_tag removes it).',
  group: 'releases',
  mode: 'write',
  destructive: true,
  record: 'release',
  input: Type.Object({ project_id: projectId(), tag_name: refName() }, { additionalProperties: false }),
  rest: { method: 'DELETE', path: RELEASE, empty: (args) => ({ deleted: true, tag_name: args.tag_name }) },
});

export const releaseTools = [listReleases, getRelease, createRelease, updateRelease, deleteRelease];
