// Identifiers in URL paths reach the forge encoded exactly once (D26): a project path
// `group/sub/project`, its already-encoded form `group%2Fsub%2Fproject` (or a partly encoded one),
// branch names, refs and file paths with `/` all become `%2F`-encoded single path segments; a
// project id sent in a body is the plain path such a segment decodes to (namespacePath). A value
// that could turn into an empty, `.` or `..` segment anywhere on its way (as given, once the forge
// decodes it, or read with look-alike dots) is refused before it is encoded (D31): the runtime and
// the forge collapse dot segments, which would send the request to another endpoint.
import { ToolError } from './errors';

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** `\` is a separator to some URL parsers and servers: it counts like `/`. */
const SEPARATORS = /[/\\]/;
/** Plain ASCII without `%` or `\` has exactly one reading: the value as given. */
const ONE_READING = /^[\u0020-\u0024\u0026-\u005b\u005d-\u007e]*$/;
/** Enough for any value encoded a few times over; the loop also stops as soon as nothing changes. */
const MAX_DECODES = 4;

/** The value percent-decoded (repeatedly), and the value and each decoding with look-alike characters folded (NFKC). */
function otherReadings(value: string): string[] {
  const forms = [value];
  let current = value;
  for (let i = 0; i < MAX_DECODES && current.includes('%'); i++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      break; // not percent-encoding after all (a literal `%`)
    }
    if (decoded === current) break;
    forms.push(decoded);
    current = decoded;
  }
  return [...forms.slice(1), ...forms.map((f) => f.normalize('NFKC'))];
}

const EMPTY = 'must not be empty';
const CONTROL = 'must not contain control characters';
const DOT_PART = 'must not be "." or ".." nor contain a "." or ".." part between slashes (percent-encoded or look-alike dots included)';
const EMPTY_PART = 'must not have an empty part between slashes (a leading, trailing or double "/")';

function partsProblem(reading: string): string | undefined {
  for (const part of reading.split(SEPARATORS)) {
    if (part === '.' || part === '..') return DOT_PART;
    if (part === '') return EMPTY_PART;
  }
  return undefined;
}

/**
 * What is wrong with a value that fills a URL path segment (D31), or undefined when nothing is.
 * The same rule holds for single names (branches, refs, shas, discussion ids) and for slash paths
 * (projects, groups, files): no part between slashes may be empty, `.` or `..`. It runs on every
 * call, so the common case (plain ASCII) is decided without decoding or normalizing.
 */
export function identifierProblem(value: string): string | undefined {
  if (value.trim() === '') return EMPTY;
  if (ONE_READING.test(value)) return value.includes('.') || value.includes('/') ? partsProblem(value) : undefined;
  if (CONTROL_CHARACTERS.test(value)) return CONTROL;
  const problem = partsProblem(value);
  if (problem) return problem;
  for (const reading of otherReadings(value)) {
    const found = partsProblem(reading);
    if (found) return found;
  }
  return undefined;
}

function checked(value: string | number, parameter: string): string {
  const text = String(value);
  const problem = identifierProblem(text);
  if (problem) throw new ToolError('validation', `${parameter}: ${problem}`);
  return text;
}

/**
 * A project or group id as GitLab reads it (D26): a numeric id or the plain path. GitLab's project
 * and group paths never hold `%`, so percent-encoding in one is an encoded form, whole
 * (`group%2Fproject`) or partial (`group/sub%2Fproject`): it is decoded once, never more, so a
 * value encoded twice stays encoded once and names no project. The value is checked first (D31:
 * every reading, decoded or not, is free of `.` and `..` parts). A body that names a project
 * (create_issue_link's target_project_id) carries this value; a path carries it encoded once.
 */
export function namespacePath(value: string | number, parameter = 'project_id'): string {
  const text = checked(value, parameter);
  if (!text.includes('%')) return text;
  let decoded: string;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    return text; // not percent-encoding after all: it names no project, and reaches GitLab as given
  }
  // The decoded path is what GitLab reads (and what a body carries): held to the written value's rule.
  if (CONTROL_CHARACTERS.test(decoded)) throw new ToolError('validation', `${parameter}: ${CONTROL}`);
  return decoded;
}

/** Encodes a project or group id as its one path segment: namespacePath's plain path, encoded once. */
export function encodeNamespace(value: string | number, parameter = 'project_id'): string {
  return encodeURIComponent(namespacePath(value, parameter));
}

/**
 * Encodes one path segment; a value that arrives already %2F-encoded is decoded first. A value
 * that breaks the identifier rule is a validation error naming `parameter`. Branch names, refs and
 * file paths may hold a literal `%`, so one that also holds a `/` is taken as written.
 */
export function encodeSegment(value: string | number, parameter = 'identifier'): string {
  return encodeURIComponent(nameWithSlashesDecoded(checked(value, parameter)));
}

/**
 * D26: a branch name, ref or file path without a `/` but with `%2F` arrives encoded, and is decoded
 * once; one holding a real `/` keeps any `%` as written. The tools' validator reads names so too,
 * so a name is the same in a URL path, a query and a body (src/tools/validate.ts).
 */
export function nameWithSlashesDecoded(text: string): string {
  if (text.includes('/') || !/%2f/i.test(text)) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // not valid percent-encoding after all: taken as written
  }
}

interface CompiledPath {
  /** Literal text around the placeholders: always one more than `names`. */
  literals: string[];
  names: string[];
  /** Per placeholder: it is the project or group id of a `/projects/{…}` or `/groups/{…}` path (encodeNamespace). */
  namespaces: boolean[];
}

/** A literal that ends where GitLab takes a project or group id: `/projects/{project_id}`, `/groups/{group_id}`. */
const NAMESPACE_SLOT = /\/(?:projects|groups)\/$/;

// Templates are a fixed set of strings in tool definitions: split each once, not per call.
const compiled = new Map<string, CompiledPath>();

function compile(template: string): CompiledPath {
  let found = compiled.get(template);
  if (!found) {
    const literals: string[] = [];
    const names: string[] = [];
    let last = 0;
    for (const match of template.matchAll(/\{(\w+)\}/g)) {
      literals.push(template.slice(last, match.index));
      names.push(match[1]);
      last = (match.index ?? 0) + match[0].length;
    }
    literals.push(template.slice(last));
    found = { literals, names, namespaces: names.map((_, i) => NAMESPACE_SLOT.test(literals[i])) };
    compiled.set(template, found);
  }
  return found;
}

/** The argument names a path template fills. */
export function pathParameters(template: string): readonly string[] {
  return compile(template).names;
}

/**
 * Fills `{name}` placeholders of a path template from the arguments, each encoded as one segment
 * (a project or group id by encodeNamespace, anything else by encodeSegment).
 * Templates are fixed strings in tool definitions; a missing argument is a programming error. A
 * value breaking the identifier rule is a validation error naming its parameter, so a handler that
 * fills a path late can never send it (D31).
 */
export function fillPath(template: string, args: Record<string, unknown>): string {
  const { literals, names, namespaces } = compile(template);
  let path = literals[0];
  for (let i = 0; i < names.length; i++) {
    const value = args[names[i]];
    if (value === undefined || value === null) throw new Error(`path parameter ${names[i]} missing for ${template}`);
    const encode = namespaces[i] ? encodeNamespace : encodeSegment;
    path += encode(value as string | number, names[i]) + literals[i + 1];
  }
  return path;
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined | null;

/** GitLab query conventions: arrays as `key[]=v`, booleans as true/false, empty values left out. */
export function buildQuery(params: Record<string, QueryValue>): string {
  const parts: string[] = [];
  for (const key in params) {
    // Own parameters only: a copy made with a `__proto__` key would have inherited ones.
    if (!Object.hasOwn(params, key)) continue;
    const value = params[key];
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) parts.push(`${encodeURIComponent(key)}[]=${encodeURIComponent(String(item))}`);
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}
