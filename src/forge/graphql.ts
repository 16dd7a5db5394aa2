// GitLab's GraphQL API beside REST (D45): where it lives, what a document is, and how an answer
// becomes data or a ToolError. GitLab answers 200 for most failures, with `errors[]` (graphql-ruby's
// shape: message, locations, path, extensions), sometimes beside a partial `data`; both are failures
// here, never a success with a hole in it. HTTP failures (401 "Invalid token", 422 for argument and
// variable errors, 503 "Request timed out") are read by failure.ts as REST's are.
// GitLab's sources: app/controllers/graphql_controller.rb (render_error, MAX_QUERY_SIZE,
// authorize_access_api!), app/graphql/gitlab_schema.rb (complexity, depth, default_max_page_size),
// lib/gitlab/graphql/authorize/authorize_resource.rb (RESOURCE_ACCESS_ERROR).
import { forgeBaseOf } from './api-url';
import { ToolError, type ErrorKind } from './errors';
import { plainTextOf } from './plain-text';

/** A fixed document: its text is a constant of the tool folder, never built from arguments (D45). */
export interface GraphqlDocument {
  /** The operation's name: sent as operationName, and the label of its metrics. */
  readonly operation: string;
  readonly text: string;
  /** A mutation is never retried (D18); a query is a read and may be. */
  readonly mutation: boolean;
}

/** GitLab refuses a query text over 10,000 characters (graphql_controller.rb, MAX_QUERY_SIZE). */
export const MAX_DOCUMENT_CHARS = 10_000;

/** Declares a document once, at module load: a malformed one fails at start-up, not in a call. */
export function graphqlDocument(text: string): GraphqlDocument {
  const m = /^\s*(query|mutation)\s+([A-Za-z_][A-Za-z0-9_]*)/.exec(text);
  if (!m) throw new Error('a GraphQL document must open with a named query or mutation');
  if (text.length > MAX_DOCUMENT_CHARS) throw new Error(`GraphQL document ${m[2]} is longer than GitLab takes (${MAX_DOCUMENT_CHARS})`);
  return Object.freeze({ operation: m[2], text, mutation: m[1] === 'mutation' });
}

/** `https://host/prefix/api/v4` → `https://host/prefix/api/graphql` (api-url.ts keeps every API URL ending in /api/v4). */
export function graphqlUrl(apiUrl: string): string {
  return `${forgeBaseOf(apiUrl)}/api/graphql`;
}

export function jobTokenGraphqlRefusal(): ToolError {
  return new ToolError(
    'permission',
    "a CI job token cannot use GitLab's GraphQL API, which the work item tools need (GitLab reads job tokens only on a few REST endpoints; see docs/credentials.md). Nothing was sent; use a personal, project or group access token or OAuth.",
  );
}

/** No answer to this server's documents nests deeper than this (GitLab's own depth limit is 20 levels of fields). */
const MAX_ANSWER_DEPTH = 64;
const MAX_MESSAGE = 600;
const MAX_ERRORS_SHOWN = 3;

interface GraphqlError {
  message?: unknown;
  extensions?: { code?: unknown; problems?: unknown } | null;
}

/** Rules over GitLab's messages and extension codes, first match wins. */
const RULES: readonly (readonly [RegExp, ErrorKind])[] = [
  // RESOURCE_ACCESS_ERROR: GitLab says the same for what does not exist and what the caller may not see.
  [/does not exist or you don't have permission/i, 'not_found'],
  [/\bnot found\b/i, 'not_found'],
  // An input's prepare naming a record that is not there, e.g. "Status doesn't exist."
  // (ee/app/graphql/types/work_items/widgets/status_input_type.rb).
  // (graphql-ruby's "Field 'x' doesn't exist on type 'Y'" is a misspelt document, not this.)
  [/^[\w\s-]+ (doesn't|does not) exist\.?$/i, 'not_found'],
  [/too many requests|requested too many times|rate limit|throttled/i, 'rate_limited'],
  [/insufficient scope|not allowed|forbidden|you don't have permission|read-only instance|cannot perform write/i, 'permission'],
  // Complexity and depth (graphql-ruby's analyzers with GitLab's limits) and the size limit: ask for less.
  [/^Query has (complexity|depth) of \d+|query too large/i, 'validation'],
  [/timed? ?out|timeout/i, 'upstream'],
  [/internal server error/i, 'upstream'],
  [/is not a valid (GitLab )?ID|invalid value|was provided invalid|argument|variable|is invalid|must |cannot |can't |not supported|already/i, 'validation'],
];

const VALIDATION_CODES = new Set([
  'undefinedField',
  'undefinedType',
  'argumentNotAccepted',
  'argumentLiteralsIncompatible',
  'missingRequiredArguments',
  'variableMismatch',
  'argumentMismatch',
]);

function kindOf(error: GraphqlError): ErrorKind {
  const message = typeof error.message === 'string' ? error.message : '';
  for (const [pattern, kind] of RULES) if (pattern.test(message)) return kind;
  const code = error.extensions?.code;
  if (typeof code === 'string' && VALIDATION_CODES.has(code)) return 'validation';
  if (error.extensions?.problems !== undefined) return 'validation';
  return 'upstream';
}

/** The ToolError for an answer's `errors[]`: the kind of the first, the words of the first few. */
function graphqlFailure(errors: readonly unknown[], partial: boolean, status: number): ToolError {
  const list = errors.map((e) => (e && typeof e === 'object' ? (e as GraphqlError) : { message: String(e) }));
  const kind = kindOf(list[0] ?? {});
  const words = list
    .slice(0, MAX_ERRORS_SHOWN)
    .map((e) => plainTextOf(typeof e.message === 'string' ? e.message : 'an error without a message', null, MAX_MESSAGE))
    .join('; ');
  const more = list.length > MAX_ERRORS_SHOWN ? ` (and ${list.length - MAX_ERRORS_SHOWN} more)` : '';
  const part = partial ? ' GitLab answered part of the request; nothing of it is returned.' : '';
  const said = `${words || 'GitLab answered with errors'}${more}`;
  return new ToolError(kind, `${said}${said.endsWith('.') ? '' : '.'}${part}`, status);
}

/** Whether `value` nests deeper than `limit` (iterative: a hostile answer cannot exhaust the stack). */
function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The `data` of a 200 answer, or the ToolError it stands for. */
export function graphqlData<T>(text: string, status: number): T {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (an HTML sign-in or error page), or nested past what the parser takes.
    throw new ToolError('upstream', `the forge answered ${status} to a GraphQL request with a body that is not JSON`, status);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new ToolError('upstream', 'the forge answered a GraphQL request with something that is not a GraphQL answer', status);
  }
  const { data, errors } = body as { data?: unknown; errors?: unknown };
  if (Array.isArray(errors) && errors.length > 0) throw graphqlFailure(errors, data !== null && data !== undefined, status);
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    throw new ToolError('upstream', 'the forge answered a GraphQL request without data or errors', status);
  }
  if (deeperThan(data, MAX_ANSWER_DEPTH)) {
    throw new ToolError(
      'upstream',
      `the forge's GraphQL answer nests deeper than ${MAX_ANSWER_DEPTH} levels, deeper than any answer to these queries; it was abandoned`,
      status,
    );
  }
  return data as T;
}
