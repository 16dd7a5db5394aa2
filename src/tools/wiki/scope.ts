// Project and group wikis are the same API under two parents (lib/api/wikis.rb; the group routes
// come from the Enterprise code, ee/lib/ee/api/helpers/wikis_helpers.rb). A scope says which parent
// and spells out its tool names literally, so each name can be found by searching for it.
import type { ToolContext } from '../define';
import { invalidArgument, ToolError } from '../errors';
import { groupId, projectId } from '../params';

interface WikiToolNames {
  list: string;
  get: string;
  create: string;
  update: string;
  delete: string;
}

export interface WikiScope {
  idParam: 'project_id' | 'group_id';
  basePath: '/projects/{project_id}' | '/groups/{group_id}';
  noun: 'project' | 'group';
  names: WikiToolNames;
}

export const PROJECT_WIKI: WikiScope = {
  idParam: 'project_id',
  basePath: '/projects/{project_id}',
  noun: 'project',
  names: { list: 'list_wiki_pages', get: 'get_wiki_page', create: 'create_wiki_page', update: 'update_wiki_page', delete: 'delete_wiki_page' },
};

export const GROUP_WIKI: WikiScope = {
  idParam: 'group_id',
  basePath: '/groups/{group_id}',
  noun: 'group',
  names: {
    list: 'list_group_wiki_pages',
    get: 'get_group_wiki_page',
    create: 'create_group_wiki_page',
    update: 'update_group_wiki_page',
    delete: 'delete_group_wiki_page',
  },
};

export function parentParam(scope: WikiScope) {
  return { [scope.idParam]: scope.noun === 'project' ? projectId() : groupId() };
}

const TIER = 'group wikis need GitLab Premium or Ultimate';

/**
 * Group wikis are a Premium feature. The Community Edition has no such route (GitLab would answer a
 * bare 404, as for a group that does not exist): refused before the network. An Enterprise build
 * without the licence answers 403 to everyone, owners included (its group policy takes read_wiki
 * away): that refusal says why.
 */
export async function withGroupWikiTier<T>(scope: WikiScope, ctx: ToolContext, call: () => Promise<T>): Promise<T> {
  if (scope.noun === 'project') return call();
  const info = ctx.instance ? await ctx.instance() : undefined;
  if (info?.edition === 'ce') throw invalidArgument('group_id', `${TIER}; this forge runs the Community Edition (${info.versionText}), which has none`);
  try {
    return await call();
  } catch (error) {
    if (error instanceof ToolError && error.kind === 'permission' && error.status === 403) {
      throw new ToolError(
        'permission',
        `${error.message} (${TIER}: an Enterprise instance without that licence refuses every group wiki call, owners' included)`,
        error.status,
      );
    }
    throw error;
  }
}
