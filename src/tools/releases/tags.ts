// Repository tags (lib/api/tags.rb). GitLab refuses a protected tag the caller may not create with a
// 400 from the repository's pre-receive check, and one it may not delete with a bare 403: both come
// back as permission failures saying which rule applies. A tag name with / is one URL segment
// (NO_SLASH_URL_PART_REGEX), encoded once by fillPath.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import type { ForgeClient } from '../../forge/client';
import { defineTool } from '../define';
import { ToolError } from '../errors';
import { longText, pagination, projectId, refName, search, input } from '../params';
import { restTool } from '../rest';
import { deletedOutput } from '../lean/schema-parts';

const TAGS = '/projects/{project_id}/repository/tags';
const TAG = `${TAGS}/{tag_name}`;

const listTags = restTool({
  name: 'list_tags',
  title: 'List tags',
  description: "List a project's tags, newest update first.",
  group: 'releases',
  mode: 'read',
  record: 'tag',
  input: input({
    project_id: projectId(),
    order_by: Type.Optional(Type.Union([Type.Literal('name'), Type.Literal('updated'), Type.Literal('version')])),
    sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    search: search('Part of the name; ^ and $ anchor'),
    ...pagination,
  }),
  rest: { method: 'GET', path: TAGS, list: true },
});

const getTag = restTool({
  name: 'get_tag',
  title: 'Get tag',
  description: 'Get a tag: its commit, message and whether it is protected.',
  group: 'releases',
  mode: 'read',
  record: 'tag',
  input: input({ project_id: projectId(), tag_name: refName() }),
  rest: { method: 'GET', path: TAG },
});

/** Tags::CreateService relays the pre-receive check's refusal of a protected tag as a 400. */
const PROTECTED_REFUSAL = /not allowed to create this tag as it is protected/i;

const createTag = defineTool({
  name: 'create_tag',
  title: 'Create tag',
  description: 'Create a tag at ref. A tag matching a protected tag rule needs a role the rule allows.',
  group: 'releases',
  mode: 'write',
  endpoint: `POST ${TAGS}`,
  input: input({
    project_id: projectId(),
    tag_name: refName(),
    ref: refName('Branch, tag or SHA'),
    message: Type.Optional(longText({ description: 'Makes it annotated' })),
  }),
  async handler(args, { forge }) {
    try {
      return await forge.json({ method: 'POST', path: fillPath(TAGS, args), body: { tag_name: args.tag_name, ref: args.ref, message: args.message } });
    } catch (error) {
      if (error instanceof ToolError && PROTECTED_REFUSAL.test(error.message)) {
        throw new ToolError(
          'permission',
          `${error.message} The name matches a protected tag rule whose "allowed to create" roles do not include the caller's; a Maintainer (or a role the rule names) can create it`,
          error.status,
        );
      }
      throw error;
    }
  },
});

/** Whether the tag is protected, asked only after a refusal; unknown when the forge will not say. */
async function isProtected(forge: ForgeClient, args: Record<string, unknown>): Promise<boolean | undefined> {
  try {
    const tag = await forge.json<{ protected?: unknown }>({ method: 'GET', path: fillPath(TAG, args) });
    return tag.protected === true;
  } catch {
    return undefined;
  }
}

const deleteTag = defineTool({
  name: 'delete_tag',
  title: 'Delete tag',
  description: 'Delete a tag (its release, if any, stays). A protected tag is deleted by Maintainers only.',
  group: 'releases',
  mode: 'write',
  destructive: true,
  endpoint: `DELETE ${TAG}`,
  output: deletedOutput('tag_name'),
  input: input({ project_id: projectId(), tag_name: refName() }),
  async handler(args, { forge }) {
    try {
      await forge.json({ method: 'DELETE', path: fillPath(TAG, args) });
    } catch (error) {
      if (error instanceof ToolError && error.status === 403 && (await isProtected(forge, args)) === true) {
        throw new ToolError('permission', `${error.message}: tag ${args.tag_name} is protected, and GitLab lets only Maintainers delete a protected tag`, 403);
      }
      throw error;
    }
    return { deleted: true, tag_name: args.tag_name };
  },
});

export const tagTools = [listTags, getTag, createTag, deleteTag];
