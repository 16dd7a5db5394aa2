// A token that expires within seven days (D38): one warning line in the log and a `warnings` entry
// on the result of its first call, once per credential in this process. The line names the token's
// kind, its expiry day and the request, never the token or its scopes.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { daysLeft, TOKEN_KIND_LABEL, type TokenProfile } from '../auth/token-profile';
import type { Caller } from '../auth/caller';
import type { Logger } from '../logging/logger';
import type { RequestContext } from './request-context';

const EXPIRY_WARNING_DAYS = 7;

/** Credentials already warned, by object and by hash, bounded: a flood of tokens forgets the oldest. */
export class TokenWarnings {
  private warned = new Set<string>();
  constructor(
    private readonly keyOf: (caller: Caller, context: RequestContext) => string,
    private readonly max = 10_000,
  ) {}

  /** True the first time a credential is seen here (then never again while remembered). */
  first(caller: Caller, context: RequestContext): boolean {
    const key = this.keyOf(caller, context);
    if (this.warned.has(key)) return false;
    if (this.warned.size >= this.max) this.warned = new Set();
    this.warned.add(key);
    return true;
  }
}

interface Deps {
  logger: Logger;
  tokenWarnings?: TokenWarnings;
  now?: () => number;
}

/** The result, with the expiry warning added when this is the credential's first call and it expires soon. */
export function tokenWarning(deps: Deps, context: RequestContext, profile: TokenProfile, result: CallToolResult): CallToolResult {
  const days = daysLeft(profile, (deps.now ?? Date.now)());
  if (days === undefined || days > EXPIRY_WARNING_DAYS || !deps.tokenWarnings?.first(context.caller, context)) return result;
  const label = TOKEN_KIND_LABEL[profile.kind ?? 'personal'];
  const when = days <= 0 ? 'today' : days === 1 ? 'tomorrow' : `in ${days} days`;
  const warning = `this ${label} expires ${when} (${profile.expiresAt}); replace it before then`;
  deps.logger.warn('token_expiring', {
    request_id: context.requestId,
    lane: context.lane,
    credential: context.caller.credential.kind,
    token_kind: profile.kind,
    expires_at: profile.expiresAt,
    days_left: days,
  });
  const structured = { ...(result.structuredContent ?? {}) } as Record<string, unknown>;
  structured.warnings = [...(Array.isArray(structured.warnings) ? structured.warnings : []), warning];
  const [first, ...rest] = result.content;
  // A success's text is its structured value as JSON (tools/result.ts): it stays so. An error's text
  // is one line; the warning follows it.
  const text = result.isError ? `${(first as { text?: string })?.text ?? ''}\nwarning: ${warning}` : JSON.stringify(structured);
  return { ...result, content: [{ type: 'text', text }, ...rest], structuredContent: structured };
}
