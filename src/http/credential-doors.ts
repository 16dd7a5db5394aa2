// What D7's credential check (auth/credential-check.ts) gives the rest of the server, built once by
// app.ts from the one CredentialChecks of the process: what tool calls read of each caller (the
// forge user of its audit line, what its token may do, who it acts as: from memory, no forge
// request once checked), and the two doors built on the check: the credential gate every remote
// caller's credential passes (D7, D38) and, in OAuth mode, the watch on a sealed token's write
// calls and forge rejections (D23, D29).
import type { Caller } from '../auth/caller';
import type { CallerResolver } from '../auth/caller-resolver';
import { keyOf, type CredentialChecks } from '../auth/credential-check';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { Logger } from '../logging/logger';
import { TokenWarnings } from '../mcp/token-warning';
import type { TraceSpan } from '../tracing/span';
import type { Refusals } from '../web/refusals';
import { createCredentialGate } from './credential-gate';
import type { GrantGuard } from './oauth-scope';

/** What the tool caller reads of a caller from the check (D35, D38, D39). */
export function callerFacts(checks: CredentialChecks) {
  return {
    // The forge user of an audit line (D35): known once checked, else looked up while the tool runs.
    forgeUser: (caller: Caller, endpoint: ForgeEndpoint, trace?: TraceSpan) => checks.username(caller.credential, endpoint, trace),
    // What the caller's token may do (D38), as the check found it.
    tokenProfile: (caller: Caller, endpoint: ForgeEndpoint) => checks.profile(caller.credential, endpoint),
    tokenWarnings: new TokenWarnings((caller, context) => keyOf(caller.credential, context.forge)),
    // Who the caller's token acts as (whoami, D39), as the check found it.
    forgeIdentity: (caller: Caller, endpoint: ForgeEndpoint) => checks.identity(caller.credential, endpoint) as Record<string, unknown> | undefined,
  };
}

interface DoorDeps {
  checks: CredentialChecks;
  callers: CallerResolver;
  isWrite(name: string): boolean;
  logger: Logger;
  refusals: Refusals;
}

export function credentialDoors(deps: DoorDeps) {
  const { checks, callers } = deps;
  // D7: a caller's own credential is checked with the forge before a legacy session opens for it.
  // The static token (D3) is trusted as configured; a token of OAuth mode's own (D23) carries a
  // forge token the forge issued to this server for that very forge (oauth/bearer.ts).
  const credentialGate = callers.remote
    ? createCredentialGate({
        checks,
        challenge: callers.challenge,
        alreadyChecked: (caller) => caller.grant !== undefined,
        logger: deps.logger,
        refusals: deps.refusals,
      })
    : undefined;
  // OAuth mode (only its caller resolver has a step-up challenge): a read_api token's write calls
  // get the step-up 403, a forge-rejected token the 401 (D23, D29).
  const grants: GrantGuard | undefined = callers.stepUpChallenge
    ? {
        isWrite: deps.isWrite,
        challenge: callers.challenge,
        stepUpChallenge: callers.stepUpChallenge,
        // A forge that cannot say counts as refusing, as the 401 it sent does.
        stillAccepted: async (caller, endpoint, trace) => (await checks.recheck(caller.credential, endpoint, trace)) === 'accepted',
      }
    : undefined;
  return { credentialGate, grants };
}
