// completion/complete for the arguments of our resource templates and prompts (D44): project paths
// the caller is a member of, a project's branches and tags, and the entries of a repository
// directory. One or two small forge requests per answer (per_page 20, a directory's first 100
// entries), never a walk; values that start with what was typed come first, at most 100 (MCP's
// cap). The typed value and the context's other arguments are the caller's: a value that could
// not be sent (too long, a `..` part) completes to nothing, and a project or ref the forge does not
// know completes to nothing rather than failing.
import type { ForgeClient } from '../forge/client';
import { fillPath, identifierProblem } from '../forge/encode';
import { ToolError } from '../forge/errors';

/** MCP's completion result holds at most 100 values. */
export const MAX_COMPLETION_VALUES = 100;
/** Forge items asked for per list (projects, branches, tags). */
const PER_PAGE = 20;
/** A directory's entries asked for, one page. */
const TREE_PER_PAGE = 100;
/** Typed values longer than this complete to nothing (no project path, ref or file path a person types is longer). */
const MAX_TYPED_CHARS = 1024;
/**
 * GitLab matches a shorter search term only as a whole name (Gitlab::SQL::Pattern,
 * lib/gitlab/sql/pattern.rb: MIN_CHARS_FOR_PARTIAL_MATCHING), so a shorter one is not sent.
 */
const MIN_SEARCH_CHARS = 3;

/** The arguments completion knows how to complete. */
const COMPLETABLE = ['project_id', 'ref', 'file_path'] as const;
type Completable = (typeof COMPLETABLE)[number];

export type Completion = {
  values: string[];
  hasMore: boolean;
};

export const NO_COMPLETION: Completion = Object.freeze({ values: [], hasMore: false }) as Completion;

export const isCompletable = (name: string): name is Completable => (COMPLETABLE as readonly string[]).includes(name);

/** Values starting with the typed text first (case-insensitive), then the rest that contain it; capped. */
function ranked(candidates: Iterable<string>, typed: string, more: boolean): Completion {
  const needle = typed.toLowerCase();
  const first: string[] = [];
  const then: string[] = [];
  for (const value of new Set(candidates)) {
    const lower = value.toLowerCase();
    if (lower.startsWith(needle)) first.push(value);
    else if (lower.includes(needle)) then.push(value);
  }
  const all = [...first, ...then];
  return { values: all.slice(0, MAX_COMPLETION_VALUES), hasMore: more || all.length > MAX_COMPLETION_VALUES };
}

/** The search term GitLab is sent for a typed project path: its longest part, when long enough. */
function projectSearch(typed: string): { search?: string; search_namespaces?: boolean } {
  const longest = typed.split('/').reduce((a, b) => (b.length > a.length ? b : a), '');
  if (longest.length < MIN_SEARCH_CHARS) return {};
  return typed.includes('/') ? { search: longest, search_namespaces: true } : { search: longest };
}

async function projects(forge: ForgeClient, typed: string): Promise<Completion> {
  const page = await forge.list<{ path_with_namespace?: unknown }>({
    method: 'GET',
    path: '/projects',
    query: { membership: true, simple: true, order_by: 'last_activity_at', per_page: PER_PAGE, ...projectSearch(typed) },
  });
  const paths = page.items.map((p) => p.path_with_namespace).filter((p): p is string => typeof p === 'string');
  return ranked(paths, typed, page.pagination.next_page !== null);
}

async function refs(forge: ForgeClient, project: string, typed: string): Promise<Completion> {
  const query = { per_page: PER_PAGE, search: typed || undefined };
  const [branches, tags] = await Promise.all([
    forge.list<{ name?: unknown }>({ method: 'GET', path: fillPath('/projects/{project_id}/repository/branches', { project_id: project }), query }),
    forge.list<{ name?: unknown }>({ method: 'GET', path: fillPath('/projects/{project_id}/repository/tags', { project_id: project }), query }),
  ]);
  const names = [...branches.items, ...tags.items].map((r) => r.name).filter((n): n is string => typeof n === 'string');
  return ranked(names, typed, branches.pagination.next_page !== null || tags.pagination.next_page !== null);
}

async function files(forge: ForgeClient, project: string, ref: string | undefined, typed: string): Promise<Completion> {
  const cut = typed.lastIndexOf('/');
  const dir = cut === -1 ? '' : typed.slice(0, cut);
  const prefix = typed.slice(cut + 1);
  if (dir !== '' && identifierProblem(dir)) return NO_COMPLETION;
  const page = await forge.list<{ name?: unknown; path?: unknown; type?: unknown }>({
    method: 'GET',
    path: fillPath('/projects/{project_id}/repository/tree', { project_id: project }),
    query: { path: dir || undefined, ref, per_page: TREE_PER_PAGE },
  });
  // A file's own name is matched by its start only (the directory is already fixed).
  const values = page.items
    .filter((e) => typeof e.path === 'string' && typeof e.name === 'string' && e.name.startsWith(prefix))
    .map((e) => (e.type === 'tree' ? `${e.path}/` : (e.path as string)));
  return { values: values.slice(0, MAX_COMPLETION_VALUES), hasMore: page.pagination.next_page !== null || values.length > MAX_COMPLETION_VALUES };
}

/** A context value that goes into a forge path: usable, or undefined (then nothing is completed). */
function usable(value: string | undefined): string | undefined {
  if (value === undefined || value.length > MAX_TYPED_CHARS || identifierProblem(value)) return undefined;
  return value;
}

/**
 * Completes one argument. `context`: the other arguments the client already has (its
 * `context.arguments`); a ref and a file path need the project, a file path uses the ref.
 * Undefined when the forge could not answer (not found, no access, down): nothing to suggest, and
 * nothing to remember either.
 */
export async function completeArgument(
  forge: ForgeClient,
  argument: Completable,
  typed: string,
  context: Record<string, string>,
): Promise<Completion | undefined> {
  if (typed.length > MAX_TYPED_CHARS) return NO_COMPLETION;
  try {
    if (argument === 'project_id') return await projects(forge, typed);
    const project = usable(context.project_id);
    if (project === undefined) return NO_COMPLETION;
    if (argument === 'ref') return await refs(forge, project, typed);
    const ref = context.ref === undefined ? undefined : usable(context.ref);
    if (context.ref !== undefined && ref === undefined) return NO_COMPLETION;
    return await files(forge, project, ref, typed);
  } catch (error) {
    // Bugs stay bugs.
    if (error instanceof ToolError) return undefined;
    throw error;
  }
}
