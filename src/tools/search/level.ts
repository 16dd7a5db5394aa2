// GitLab's search API at its three levels (lib/api/search.rb): the whole instance (GET /search),
// a group (GET /groups/:id/search) or a project (GET /projects/:id/search), and what each takes.
// Which scopes each level answers (lib/api/helpers/search_helpers.rb; EE adds code, commits, wiki
// and comments to the instance and group levels, ee/lib/ee/api/helpers/search_helpers.rb) and why
// a GitLab without advanced search refuses those (ee/lib/ee/api/search.rb): docs/forge-editions.md.
import { ToolError } from '../errors';
import { invalidArgument } from '../errors';

type Level = 'instance' | 'group' | 'project';

interface Where {
  project_id?: string;
  group_id?: string;
}

export function levelOf(args: Where): Level {
  return args.project_id !== undefined ? 'project' : args.group_id !== undefined ? 'group' : 'instance';
}

export const PATHS: Record<Level, string> = {
  instance: '/search',
  group: '/groups/{group_id}/search',
  project: '/projects/{project_id}/search',
};

/** Every scope GitLab's search has, and the levels that take it. */
export const SCOPES = {
  projects: ['instance', 'group'],
  issues: ['instance', 'group', 'project'],
  merge_requests: ['instance', 'group', 'project'],
  milestones: ['instance', 'group', 'project'],
  snippet_titles: ['instance'],
  users: ['instance', 'group', 'project'],
  wiki_blobs: ['instance', 'group', 'project'],
  commits: ['instance', 'group', 'project'],
  blobs: ['instance', 'group', 'project'],
  notes: ['instance', 'group', 'project'],
} as const satisfies Record<string, readonly Level[]>;

export type Scope = keyof typeof SCOPES;

/** Scopes a group or the instance answers only with advanced search (blobs: or exact code search). */
const ADVANCED: readonly string[] = ['blobs', 'commits', 'wiki_blobs', 'notes'];

const NOUN: Record<Level, string> = { instance: 'the whole instance', group: 'a group', project: 'a project' };

/** The checks of every search: one level at most, the scope taken there, a term that says something. */
export function checkSearch(args: Where & { scope: string; search: string; ref?: string }): void {
  if (args.project_id !== undefined && args.group_id !== undefined) throw invalidArgument('group_id', 'give project_id or group_id, not both');
  const level = levelOf(args);
  const levels = SCOPES[args.scope as Scope] as readonly Level[] | undefined;
  if (levels && !levels.includes(level)) {
    const where = levels.map((l) => (l === 'instance' ? 'without project_id and group_id' : `with ${l}_id`)).join(' or ');
    throw invalidArgument('scope', `${args.scope} is not searched within ${NOUN[level]}; search it ${where}`);
  }
  if (args.search.trim() === '') throw invalidArgument('search', 'must not be blank');
  // GitLab would fail on a NUL in its database query; no search means anything by a control character.
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(args.search)) throw invalidArgument('search', 'must not contain control characters');
  if (args.ref !== undefined && level !== 'project')
    throw invalidArgument('ref', 'is taken only with project_id (a group or the instance searches default branches)');
}

/** GitLab's refusals of a scope that needs advanced search: EE's two messages, older EE's, and CE's undeclared scope. */
const NEEDS_ADVANCED = /advanced search|exact code search|elasticsearch|scope does not have a valid value/i;

/**
 * A 400 for a scope GitLab answers only with advanced search, as a validation error that names the
 * scope, says why and what works instead; any other failure as it is.
 */
export function explainRefusal(error: unknown, scope: string, level: Level): unknown {
  if (!(error instanceof ToolError) || error.status !== 400 || level === 'project' || !ADVANCED.includes(scope) || !NEEDS_ADVANCED.test(error.message))
    return error;
  const needs = scope === 'blobs' ? 'advanced search or exact code search' : 'advanced search';
  return new ToolError(
    'validation',
    `scope: ${scope} across ${NOUN[level]} needs GitLab's ${needs}, which this GitLab does not have (it answered: ${error.message}); search one project instead (project_id), which every GitLab answers`,
    error.status,
  );
}
