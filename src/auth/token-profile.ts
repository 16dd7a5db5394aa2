// What a credential's token may do, as the forge describes it (D38): asked once per credential
// beside D7's check and kept with its answer. Sources, in GitLab's words:
// - GET /personal_access_tokens/self (GitLab 15.5 and later; any scope may read it; a fine-grained
//   token needs "Personal Access Token: Read"): `scopes`, `expires_at` (a date), and for a
//   fine-grained token `granular: true`, scopes `["granular"]` and the grant in `granular_scopes`;
// - GET /oauth/token/info for an OAuth access token (Doorkeeper): `scope` (a list), `expires_in`;
// - the check's own answer: a bot user's username (`project_<id>_bot_…`, `group_<id>_bot_…`) marks a
//   project or group access token; a 403 `insufficient_granular_scope` a fine-grained token.
// Anything else leaves a part unknown, and unknown narrows nothing. Nothing here is logged, and the
// token never leaves the request that carries it.
import { forgeBaseOf } from '../forge/api-url';
import { readTextWithin } from '../forge/body';
import type { Credential } from '../forge/credential';
import type { FetchLike } from '../forge/client';
import { credentialedGet } from './credentialed-get';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { TraceSpan } from '../tracing/span';

type TokenKind = 'personal' | 'fine-grained' | 'project' | 'group' | 'oauth' | 'job';

const TOKEN_KINDS: readonly TokenKind[] = ['personal', 'fine-grained', 'project', 'group', 'oauth', 'job'];

export interface TokenProfile {
  /** Which credential the forge showed it to be. */
  readonly kind?: TokenKind;
  /** Whether it may change data through the REST API; undefined: not known. */
  readonly canWrite?: boolean;
  /** What a write needs that the token lacks (for the `permission` error), when canWrite is false. */
  readonly needs?: string;
  /** The day the forge stops taking it (`YYYY-MM-DD`, UTC), when it has one. */
  readonly expiresAt?: string;
}

/** What the forge answered about the token itself. */
export interface ProfileSources {
  self?: { scopes: string[]; expiresAt?: string; granular: boolean; permissions?: string[] };
  oauth?: { scopes: string[] };
  /** /personal_access_tokens/self refused with `insufficient_granular_scope`: a fine-grained token without "Personal Access Token: Read". */
  fineGrained?: true;
}

/** A self-description is a few hundred bytes; a fine-grained grant a few KB. */
const MAX_PROFILE_BYTES = 64 * 1024;
const MAX_ENTRIES = 512;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.length <= MAX_ENTRIES && value.every((s) => typeof s === 'string' && s.length <= 100) ? (value as string[]) : undefined;

async function getJson(
  fetchImpl: FetchLike,
  url: string,
  credential: Credential,
  endpoint: ForgeEndpoint,
  trace: TraceSpan | undefined,
): Promise<{ status: number; json?: unknown; refusal?: string }> {
  try {
    const response = await credentialedGet(fetchImpl, url, credential, endpoint, trace);
    if (response.status === 403) return { status: 403, refusal: kindOfRefusal(await readTextWithin(response, MAX_PROFILE_BYTES)) };
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return { status: response.status };
    }
    const text = await readTextWithin(response, MAX_PROFILE_BYTES);
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    return { status: 0 };
  }
}

function selfFrom(json: unknown): ProfileSources['self'] {
  if (!json || typeof json !== 'object') return undefined;
  const record = json as { scopes?: unknown; expires_at?: unknown; granular?: unknown; granular_scopes?: unknown };
  const scopes = strings(record.scopes);
  if (!scopes) return undefined;
  const granular = record.granular === true || (scopes.length === 1 && scopes[0] === 'granular');
  let permissions: string[] | undefined;
  if (granular && Array.isArray(record.granular_scopes) && record.granular_scopes.length <= MAX_ENTRIES) {
    permissions = [];
    for (const grant of record.granular_scopes as { permissions?: unknown }[]) {
      const names = strings(grant?.permissions);
      if (!names) {
        permissions = undefined;
        break;
      }
      permissions.push(...names);
    }
  }
  const expiresAt = typeof record.expires_at === 'string' && DATE.test(record.expires_at) ? record.expires_at : undefined;
  return { scopes, granular, ...(expiresAt ? { expiresAt } : {}), ...(permissions ? { permissions } : {}) };
}

/**
 * Asks the forge what the token is: /personal_access_tokens/self, and for a bearer token that is
 * no personal access token (GitLab answers 400, or an older GitLab something else), OAuth's
 * /oauth/token/info beside the API (`…/api/v4` taken off). Never throws.
 */
export async function readProfile(fetchImpl: FetchLike, credential: Credential, endpoint: ForgeEndpoint, trace?: TraceSpan): Promise<ProfileSources> {
  const self = await getJson(fetchImpl, `${endpoint.apiUrl}/personal_access_tokens/self`, credential, endpoint, trace);
  const described = selfFrom(self.json);
  if (described) return { self: described };
  if (self.refusal === 'insufficient_granular_scope') return { fineGrained: true };
  if (credential.kind !== 'bearer' || self.status === 0 || self.status === 401) return {};
  const base = forgeBaseOf(endpoint.apiUrl);
  const info = await getJson(fetchImpl, `${base}/oauth/token/info`, credential, endpoint, trace);
  const record = info.json as { scope?: unknown; scopes?: unknown } | undefined;
  const scopes = strings(record?.scope) ?? strings(record?.scopes);
  return scopes ? { oauth: { scopes } } : {};
}

/** The RFC 6750 code of a 403's JSON body, when it is one of GitLab's scope refusals. */
export function kindOfRefusal(text: string): string | undefined {
  try {
    const error = (JSON.parse(text) as { error?: unknown } | null)?.error;
    return error === 'insufficient_scope' || error === 'insufficient_granular_scope' ? error : undefined;
  } catch {
    return undefined;
  }
}

/** A fine-grained permission that changes something: anything but `read_…`. */
const writes = (permission: string) => !permission.startsWith('read_');

const WRITE_PERMISSION = 'a Create, Update or Delete permission on the resource (a fine-grained grant)';

/** What is known of the token from the check's answer and the forge's description of it. */
export function profileFrom(
  credential: Credential,
  username: string | undefined,
  refusal: string | undefined,
  sources: ProfileSources,
): TokenProfile | undefined {
  if (credential.kind === 'job') return { kind: 'job' };
  const { self, oauth, fineGrained } = sources;
  let kind: TokenKind | undefined;
  if (oauth) kind = 'oauth';
  else if (self?.granular || fineGrained || refusal === 'insufficient_granular_scope') kind = 'fine-grained';
  else if (username !== undefined && /^project_\d+_bot/.test(username)) kind = 'project';
  else if (username !== undefined && /^group_\d+_bot/.test(username)) kind = 'group';
  else if (self) kind = 'personal';
  let canWrite: boolean | undefined;
  let needs: string | undefined;
  if (self?.granular) {
    if (self.permissions) {
      canWrite = self.permissions.some(writes);
      needs = WRITE_PERMISSION;
    }
  } else {
    const scopes = self?.scopes ?? oauth?.scopes;
    if (scopes) {
      canWrite = scopes.includes('api');
      needs = 'the `api` scope';
    }
  }
  const profile: TokenProfile = {
    ...(kind ? { kind } : {}),
    ...(canWrite !== undefined ? { canWrite } : {}),
    ...(canWrite === false && needs ? { needs } : {}),
    ...(self?.expiresAt ? { expiresAt: self.expiresAt } : {}),
  };
  return Object.keys(profile).length > 0 ? profile : undefined;
}

/** A profile read back from the store (D37), checked rather than trusted; anything off is dropped. */
export function checkedProfile(value: unknown): TokenProfile | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const profile: TokenProfile = {
    ...(typeof v.kind === 'string' && (TOKEN_KINDS as readonly string[]).includes(v.kind) ? { kind: v.kind as TokenKind } : {}),
    ...(typeof v.canWrite === 'boolean' ? { canWrite: v.canWrite } : {}),
    ...(typeof v.needs === 'string' && v.needs.length <= 200 ? { needs: v.needs } : {}),
    ...(typeof v.expiresAt === 'string' && DATE.test(v.expiresAt) ? { expiresAt: v.expiresAt } : {}),
  };
  return Object.keys(profile).length > 0 ? profile : undefined;
}

/** How an audit line or a message names a kind of token. */
export const TOKEN_KIND_LABEL: Record<TokenKind, string> = {
  personal: 'personal access token',
  'fine-grained': 'fine-grained personal access token',
  project: 'project access token',
  group: 'group access token',
  oauth: 'OAuth access token',
  job: 'CI job token',
};

const DAY_MS = 86_400_000;

/** Whole days until the token stops working (its expiry day starts at midnight UTC), when it expires. */
export function daysLeft(profile: TokenProfile | undefined, now: number): number | undefined {
  if (!profile?.expiresAt) return undefined;
  const ends = Date.parse(`${profile.expiresAt}T00:00:00Z`);
  return Number.isFinite(ends) ? Math.floor((ends - now) / DAY_MS) : undefined;
}
