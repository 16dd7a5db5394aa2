// How the work item tools name a namespace and a work item (D45). GitLab's GraphQL API finds
// namespaces by full path only (`project(fullPath:)`, `group(fullPath:)`), so a numeric id is refused
// here rather than sent to find nothing. A work item is its global id (gid://gitlab/WorkItem/N; a
// global id of any other kind is refused before anything is sent), its iid in a namespace, or its web
// URL on this forge (…/-/work_items/N, …/-/issues/N, /groups/…/-/epics/N).
import { Type, type TSchema } from '@sinclair/typebox';
import { ToolError } from '../../forge/errors';
import type { ToolContext } from '../define';
import { invalidArgument } from '../errors';
import { ID, LIMITS, numericId } from '../params';
import { RESOLVE_WORK_ITEM } from './documents';
import { workItemGraphql } from './editions';

const PATH = '^(?![0-9]+$)[A-Za-z0-9_][A-Za-z0-9_.+-]*(/[A-Za-z0-9_][A-Za-z0-9_.+-]*)*$';
/** PATH as a RegExp, for a path read out of a URL (the schema checks what is given as namespace_path). */
const PATH_RE = new RegExp(PATH);

/** A project's or group's full path (what it takes is said once, in the group's instructions). */
export const namespacePath = () =>
  Type.String({
    minLength: 1,
    maxLength: LIMITS.identifier,
    pattern: PATH,
    hint: "must be a full path such as group/sub/project (GitLab's GraphQL API finds projects and groups by path, not numeric id)",
    description: 'Full path (group/project), not an id.',
  });

const GID = '^(gid://gitlab/WorkItem/[1-9][0-9]{0,18}|[1-9][0-9]{0,18})$';

/** A work item's global id (or just its number). */
export const workItemId = (description = 'Global id: gid://gitlab/WorkItem/42 (or 42).') =>
  Type.String({
    pattern: GID,
    maxLength: 40,
    hint: "must be a work item's global id such as gid://gitlab/WorkItem/42 (or 42); other kinds of global id are not work items",
    description,
    ...ID,
  });

/** The three ways to name one work item (said once, in the group's instructions); `check` wants exactly one. */
export const workItemRef = (): Record<string, TSchema> => ({
  id: Type.Optional(workItemId()),
  namespace_path: Type.Optional(namespacePath()),
  iid: Type.Optional({ ...numericId('must be the number within the project or group, such as 12'), description: 'With namespace_path.' }),
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Its web page.' })),
});

export interface RefArgs {
  id?: string;
  namespace_path?: string;
  iid?: string;
  url?: string;
}

export function checkRef(args: RefArgs, what = 'the work item'): void {
  const ways = [args.id !== undefined, args.namespace_path !== undefined || args.iid !== undefined, args.url !== undefined].filter(Boolean).length;
  if (ways !== 1) throw invalidArgument('id', `name ${what} one way: id, or namespace_path with iid, or url`);
  if ((args.namespace_path === undefined) !== (args.iid === undefined))
    throw invalidArgument(args.iid === undefined ? 'iid' : 'namespace_path', 'namespace_path and iid go together');
}

export const toGid = (id: string) => (id.startsWith('gid://') ? id : `gid://gitlab/WorkItem/${id}`);

const WEB_PATH = /^\/(groups\/)?(.+?)\/-\/(work_items|issues|epics)\/([1-9][0-9]{0,18})\/?$/;

/** The namespace path and iid of a web URL on this forge. */
function fromUrl(url: string, ctx: ToolContext): { namespace_path: string; iid: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument('url', 'must be an http(s) URL');
  }
  if (parsed.origin !== ctx.forge.endpoint.origin) throw invalidArgument('url', "is not on this forge (its host differs from the forge's)");
  const m = WEB_PATH.exec(parsed.pathname);
  if (!m || !PATH_RE.test(m[2]))
    throw invalidArgument('url', 'must be a work item, issue or epic page (…/-/work_items/12, …/-/issues/12, /groups/…/-/epics/3)');
  return { namespace_path: m[2], iid: m[4] };
}

/** `{namespace_path, iid}` of a ref given by iid or URL; undefined when it is given by id. */
export function iidRef(args: RefArgs, ctx: ToolContext): { namespace_path: string; iid: string } | undefined {
  if (args.url !== undefined) return fromUrl(args.url, ctx);
  if (args.namespace_path !== undefined && args.iid !== undefined) return { namespace_path: args.namespace_path, iid: args.iid };
  return undefined;
}

interface NodesOf {
  project?: { workItems?: { nodes?: ({ id?: string } | null)[] } | null } | null;
  group?: { workItems?: { nodes?: ({ id?: string } | null)[] } | null } | null;
}

/** The first node of a `project … group …` answer, or not_found naming the path. */
export function firstNode<T>(data: NodesOf, path: string, iid: string): T {
  const node = (data.project?.workItems?.nodes ?? data.group?.workItems?.nodes ?? [])[0];
  if (!node) {
    const where = data.project || data.group ? `${path} has no work item ${iid}` : `no project or group ${path} that the caller can see`;
    throw new ToolError('not_found', `${where} (GitLab answers the same for what does not exist and what the caller may not see)`);
  }
  return node as T;
}

/** The global id of the work item a write names: asked of GitLab when it is given by iid or URL. */
export async function resolveGid(args: RefArgs, ctx: ToolContext): Promise<string> {
  if (args.id !== undefined) return toGid(args.id);
  const ref = iidRef(args, ctx)!;
  const data = await workItemGraphql<NodesOf>(ctx, RESOLVE_WORK_ITEM, { fullPath: ref.namespace_path, iid: ref.iid });
  return firstNode<{ id: string }>(data, ref.namespace_path, ref.iid).id;
}

/** A work item's widget of one type (HIERARCHY, NOTES, …), if its answer has it. */
export const widget = <W extends { type?: string }>(item: { widgets?: (W | null)[] | null } | null | undefined, type: string): W | undefined =>
  (item?.widgets ?? []).find((w): w is W => w?.type === type) ?? undefined;

/** not_found for what GitLab's GraphQL answer left null (it answers the same for what the caller may not see). */
export const gone = (what: string) =>
  new ToolError('not_found', `${what} was not found (GitLab answers the same for what does not exist and what the caller may not see)`);
