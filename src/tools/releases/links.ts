// Release asset links (lib/api/release/links.rb): GitLab takes http, https and ftp URLs only, and
// names and URLs unique within a release (Releases::Link's validations); both are checked here
// before anything is sent. direct_asset_path gives the link a permanent URL under the release.
import { Type } from '@sinclair/typebox';
import { invalidArgument } from '../errors';
import { LIMITS, numericId, pagination, projectId, refName, shortName } from '../params';
import { restTool } from '../rest';

const LINKS = '/projects/{project_id}/releases/{tag_name}/assets/links';

export const linkType = Type.Optional(
  Type.Union(
    ['other', 'runbook', 'image', 'package'].map((t) => Type.Literal(t)),
    { description: 'Default other' },
  ),
);
/** GitLab blocks any other scheme (Releases::Link validates the URL with schemes http, https and ftp). */
export const assetUrl = () =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.filePath,
    pattern: '^(https?|ftp)://[^\\s/?#]+',
    hint: 'must be an http, https or ftp URL (GitLab blocks other schemes)',
    description: 'http, https or ftp',
  });
/** A path under the release's downloads (`/bin/api-linux-amd64`), as GitLab's filepath format allows. */
export const directAssetPath = () =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: LIMITS.filePath,
      pattern: '^/?[A-Za-z0-9_\\-./+]+$',
      hint: 'must be a path such as /bin/app-linux-amd64 (letters, digits, _ - . / +)',
      description: 'Download path: /bin/app',
    }),
  );

export interface LinkArgs {
  name: string;
  url: string;
  direct_asset_path?: string;
}

/** Releases::Link's URL rule: http, https or ftp, with a host; and no `..` in a direct asset path. */
export function checkLink(link: LinkArgs, label: (field: string) => string = (f) => f): void {
  if (!/^(https?|ftp):\/\/[^\s/?#]+/i.test(link.url)) throw invalidArgument(label('url'), 'must be an http, https or ftp URL (GitLab blocks other schemes)');
  if (link.direct_asset_path?.split('/').some((part) => part === '..' || part === '.')) {
    throw invalidArgument(label('direct_asset_path'), 'must not have a . or .. part');
  }
}

const listReleaseLinks = restTool({
  name: 'list_release_links',
  title: 'List release links',
  description: 'List the asset links of the release of tag_name.',
  group: 'releases',
  mode: 'read',
  record: 'release_link',
  input: Type.Object({ project_id: projectId(), tag_name: refName(), ...pagination }, { additionalProperties: false }),
  rest: { method: 'GET', path: LINKS, list: true },
});

const createReleaseLink = restTool({
  name: 'create_release_link',
  title: 'Create release link',
  description: 'Add an asset link (name and URL unique in the release) to the release of tag_name.',
  group: 'releases',
  mode: 'write',
  input: Type.Object(
    {
      project_id: projectId(),
      tag_name: refName(),
      name: shortName({ description: 'Link text' }),
      url: assetUrl(),
      direct_asset_path: directAssetPath(),
      link_type: linkType,
    },
    { additionalProperties: false },
  ),
  check: (args) => checkLink(args),
  rest: { method: 'POST', path: LINKS },
});

const deleteReleaseLink = restTool({
  name: 'delete_release_link',
  title: 'Delete release link',
  description: 'Remove an asset link from the release of tag_name.',
  group: 'releases',
  mode: 'write',
  destructive: true,
  record: 'release_link',
  input: Type.Object(
    { project_id: projectId(), tag_name: refName(), link_id: numericId(undefined, 'From list_release_links') },
    { additionalProperties: false },
  ),
  rest: { method: 'DELETE', path: `${LINKS}/{link_id}` },
});

export const releaseLinkTools = [listReleaseLinks, createReleaseLink, deleteReleaseLink];
