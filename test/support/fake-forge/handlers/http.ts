// Request context, GitLab-shaped errors, Rack-style parameter parsing and the raw-path router.
// Routes are matched on the still-%-encoded pathname split on literal `/`, so `acme%2Fplatform%2Fapi`
// is one segment while an un-encoded slash adds segments and simply fails to match (→ 404, as GitLab).
import { ACCESS, type ForgeModel, type Project, type TokenInfo, type User } from '../model';
import { jobTokenReaches } from '../tokens';

export class ApiError extends Error {
  constructor(
    public status: number,
    public body: unknown,
    public headers?: Record<string, string>,
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

/** not_found!(X) → "404 X Not Found"; bare → GitLab's ActiveRecord "404 Not found". */
export const notFound = (what?: string) => new ApiError(404, { message: what ? `404 ${what} Not Found` : '404 Not found' });
export const forbidden = () => new ApiError(403, { message: '403 Forbidden' });
export const unauthorized = () => new ApiError(401, { message: '401 Unauthorized' });
/** Business-rule failures: {"message": ...} verbatim. */
export const badRequest = (message: unknown) => new ApiError(400, { message });
/** Grape parameter validation failures: {"error": ...}. */
export const paramError = (error: string) => new ApiError(400, { error });

export function json(body: unknown, status = 200, headers?: Headers | Record<string, string>): Response {
  const h = new Headers(headers);
  h.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { status, headers: h });
}

// ---- parameters ---------------------------------------------------------------------------

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Rack's nested params: `a[]=1`, `a[b]=1`, `a[][b]=1&a[][c]=2` → {a: [{b, c}]}. */
export function parseNested(pairs: Iterable<[string, string]>): Obj {
  const out: Obj = {};
  for (const [key, value] of pairs) {
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = m ? [m[1], ...[...m[2].matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1])] : [key];
    assign(out, path, value);
  }
  return out;
}

function assign(obj: Obj, path: string[], value: unknown): void {
  const [head, ...rest] = path;
  if (head === '__proto__') return;
  if (rest.length === 0) {
    obj[head] = value;
    return;
  }
  if (rest[0] === '') {
    const arr = Array.isArray(obj[head]) ? (obj[head] as unknown[]) : ((obj[head] = []) as unknown[]);
    const tail = rest.slice(1);
    if (tail.length === 0) {
      arr.push(value);
      return;
    }
    // Rack appends to the last hash unless it already has this key.
    let last = arr[arr.length - 1];
    if (!isObj(last) || tail[0] in last) {
      last = {};
      arr.push(last);
    }
    assign(last as Obj, tail, value);
    return;
  }
  const child = isObj(obj[head]) ? (obj[head] as Obj) : ((obj[head] = {}) as Obj);
  assign(child, rest, value);
}

/** Merged query + body params (body wins, like Rails) with Grape-like coercion errors. */
export class Params {
  constructor(public data: Obj) {}

  raw(name: string): unknown {
    let v: unknown = this.data;
    for (const part of name.split('.')) v = isObj(v) ? v[part] : undefined;
    return v;
  }
  /** Grape names nested params `range[start]` in its messages. */
  private label(name: string) {
    const [h, ...r] = name.split('.');
    return h + r.map((x) => `[${x}]`).join('');
  }
  has(name: string) {
    return this.raw(name) !== undefined && this.raw(name) !== null;
  }

  str(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw paramError(`${this.label(name)} is invalid`);
  }
  required(name: string, allowBlank = true): string {
    const v = this.str(name);
    if (v === undefined) throw paramError(`${this.label(name)} is missing`);
    if (!allowBlank && v.trim() === '') throw paramError(`${this.label(name)} is empty`);
    return v;
  }
  int(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null || v === '') return undefined;
    if (typeof v === 'number' && Number.isInteger(v)) return v;
    if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
    throw paramError(`${this.label(name)} is invalid`);
  }
  float(name: string): number | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null || v === '') return undefined;
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (!Number.isFinite(n)) throw paramError(`${this.label(name)} is invalid`);
    return n;
  }
  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined || v === null || v === '') return undefined;
    if (v === true || v === 1 || (typeof v === 'string' && /^(true|1|t|yes)$/i.test(v))) return true;
    if (v === false || v === 0 || (typeof v === 'string' && /^(false|0|f|no)$/i.test(v))) return false;
    throw paramError(`${this.label(name)} is invalid`);
  }
  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.str(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw paramError(`${this.label(name)} does not have a valid value`);
    return v as T;
  }
}

// ---- context and routing ------------------------------------------------------------------

export interface Ctx {
  model: ForgeModel;
  request: Request;
  url: URL;
  /** Raw, still %-encoded pathname. */
  rawPath: string;
  /** Decoded path params. */
  params: Record<string, string>;
  input: Params;
  user: User;
  /** The credential the request came with (absent where a test builds a context by hand). */
  auth?: Authenticated;
}

export type Handler = (ctx: Ctx) => Response | Promise<Response>;
export interface Route {
  method: string;
  segments: string[];
  handler: Handler;
}

export const route = (method: string, path: string, handler: Handler): Route => ({ method, segments: path.split('/').filter(Boolean), handler });

/** Match raw segments against a pattern; `:name` segments are percent-decoded. */
export function matchRoute(r: Route, raw: string[]): Record<string, string> | undefined {
  // A last `*name` segment takes the rest of the path, one or more segments (Grape's wildcard).
  const wildcard = r.segments.at(-1)?.startsWith('*') === true;
  if (wildcard ? raw.length < r.segments.length : r.segments.length !== raw.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < raw.length; i++) {
    const pat = r.segments[i];
    if (wildcard && i === r.segments.length - 1) {
      try {
        params[pat.slice(1)] = raw.slice(i).map(decodeURIComponent).join('/');
      } catch {
        return undefined;
      }
      return params;
    }
    if (pat.startsWith(':')) {
      if (raw[i] === '') return undefined;
      try {
        params[pat.slice(1)] = decodeURIComponent(raw[i]);
      } catch {
        return undefined;
      }
    } else if (pat !== raw[i]) return undefined;
  }
  return params;
}

/** The credential a request authenticated with. */
export interface Authenticated {
  user: User;
  token: string;
  info: TokenInfo;
}

/**
 * PRIVATE-TOKEN / Bearer take personal (and OAuth) tokens, JOB-TOKEN only job tokens; the first
 * credential present decides. A job token counts only on a route that reads job tokens
 * (tokens.ts): elsewhere GitLab never looks at it, and `anonymous` says so.
 */
export function authenticate(model: ForgeModel, req: Request, url: URL, segments: string[] = []): Authenticated | 'anonymous' | undefined {
  const h = req.headers;
  const bearer = /^Bearer\s+(.+)$/i.exec(h.get('authorization') ?? '')?.[1];
  const candidates: [string | null | undefined, 'personal' | 'job'][] = [
    [h.get('private-token'), 'personal'],
    [bearer, 'personal'],
    [h.get('job-token'), 'job'],
    [url.searchParams.get('private_token'), 'personal'],
    [url.searchParams.get('access_token'), 'personal'],
    [url.searchParams.get('job_token'), 'job'],
  ];
  const found = candidates.find(([t]) => t);
  if (!found) return undefined;
  if (found[1] === 'job' && !jobTokenReaches(req.method, segments)) return 'anonymous';
  const token = found[0]!.trim();
  const info = model.tokens.get(token);
  if (!info || info.kind !== found[1]) return undefined;
  const user = model.users.get(info.userId);
  return user ? { user, token, info } : undefined;
}

/** Resolve :id; invisible projects are 404 like GitLab. */
export function loadProject(ctx: Ctx): Project {
  const p = ctx.model.findProject(ctx.params.id);
  if (!p || !ctx.model.canSee(p, ctx.user.id)) throw notFound('Project');
  return p;
}

export function requireLevel(ctx: Ctx, p: Project, level: number): void {
  if (ctx.model.accessLevel(p, ctx.user.id) < level) throw forbidden();
}

export { ACCESS };
