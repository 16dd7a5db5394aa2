// OAuth mode put together (docs/spec.md "OAuth mode", D21–D24, D29): the stores for this deployment
// (sealed in stateless mode, in memory otherwise), this server's own tokens (D23, sealed in every
// mode), the local bearer-checking caller resolver for /mcp, and
// the routes: discovery, /register, /authorize, /consent, /callback and /token, each limited per
// client IP outside stateless mode (D10), and in it too when replicas share a store (D37).
import { Elysia, type AnyElysia } from 'elysia';
import type { CallerResolver } from '../auth/caller-resolver';
import type { Config } from '../config/load';
import type { ForgePool } from '../forge/pool';
import type { Logger } from '../logging/logger';
import { sealerFromConfig } from '../sealing/from-config';
import type { Sealer } from '../sealing/sealer';
import { authorizeHandler } from './authorize';
import { oauthCallers } from './bearer';
import { callbackHandler } from './callback';
import type { ClientRegistry } from './clients';
import { clientsFromConfig } from './clients-from-config';
import { consentDecisionHandler } from './consent';
import type { FlowDeps } from './flow';
import { ForgeOAuthClient } from './forge-oauth';
import { publicPreflight, withPublicCors } from './http';
import { ipLimited } from './ip-limits';
import { noOAuthEvents, type OAuthEvents } from '../metrics/oauth-events';
import { AS_METADATA_PATH, PRM_PATH, authorizationServerMetadata, bearerChallenge, protectedResourceMetadata, stepUpChallenge } from './metadata';
import { OwnTokens } from './own-tokens';
import { registerHandler } from './register';
import { MAX_REMEMBERED_REFRESHES, RefreshReuse } from './refresh-reuse';
import { MAX_GUARDED_CODES, MAX_GUARDED_REFRESH_TOKENS, ReplayGuard } from './replay-guard';
import { oauthSettings } from './settings';
import { tokenHandler, type RefreshOutcome } from './token';
import type { SharedStore } from '../store/store';
import type { Refusals } from '../web/refusals';
import { MemoryVault, SealedVault, type PurposeTtls, type Vault } from './vault';

interface OAuthDeps {
  pool: ForgePool;
  logger: Logger;
  /**
   * Required in stateless mode: client ids, states and proxy codes are sealed with it. The tokens
   * (D23) are sealed with it in every mode; without it, with a per-process sealer of its own.
   */
  sealer?: Sealer;
  /** Told of OAuth outcomes (metrics, D11): registrations, metadata-document fetches, consent, /token, bearer refusals. */
  events?: OAuthEvents;
  now: () => number;
  /** The client address a request counts against (socket or X-Forwarded-For, MCP_TRUST_PROXY). */
  ipOf(request: Request): string;
  /** The 429 of the per-address limit, counted and logged as on every surface (web/refusals.ts). */
  refusals: Refusals;
  /**
   * The store of single use, limits and documents (store/from-config.ts), one per use in memory;
   * `shared`: replicas share it (D37), so the per-address limits run in stateless mode too.
   */
  stores?: { open(maxEntries: number): SharedStore; shared: boolean };
}

interface OAuthMode {
  callers: CallerResolver;
  routes: AnyElysia;
}

const metadataResponse = (document: object) =>
  withPublicCors(new Response(JSON.stringify(document), { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300' } }));

function statelessSealer(sealer: Sealer | undefined): Sealer {
  if (!sealer) throw new Error('OAuth in stateless mode needs the sealer (sealerFromConfig) in the app options');
  return sealer;
}

export function createOAuth(config: Config, deps: OAuthDeps): OAuthMode {
  const settings = oauthSettings(config);
  const { logger, now } = deps;
  // Stateless mode seals registrations and the flow's values (D9); the app options must bring the sealer.
  const sealed = settings.stateless ? statelessSealer(deps.sealer) : undefined;
  const ttls: PurposeTtls = { consent: settings.ttlSeconds.pending, state: settings.ttlSeconds.pending, code: settings.ttlSeconds.code };
  const events = deps.events ?? noOAuthEvents;
  const clients: ClientRegistry = clientsFromConfig(config, {
    sealed,
    clientTtlSeconds: settings.ttlSeconds.client,
    logger,
    now,
    onDocumentFetch: (outcome) => events({ kind: 'metadata_fetch', outcome }),
    openStore: deps.stores?.open,
  });
  const vault: Vault = sealed ? new SealedVault(sealed, ttls) : new MemoryVault(ttls, now);
  const forge = new ForgeOAuthClient(settings, () => deps.pool.endpoint(settings.forgeApiUrl));
  const flow: FlowDeps = { settings, clients, vault, forge, logger, now, ipOf: deps.ipOf, events };

  // Keys derived once, at start-up (sealing/keys.ts): a bearer check opens a value, nothing more.
  const tokenSealer = deps.sealer ? Promise.resolve(deps.sealer) : sealerFromConfig(config, now);
  const tokens = new OwnTokens(
    tokenSealer,
    { resource: settings.resource, accessTtlSeconds: settings.tokenTtlSeconds.access, refreshTtlSeconds: settings.tokenTtlSeconds.refresh },
    now,
  );

  const callers = oauthCallers({
    tokens,
    apiUrl: settings.forgeApiUrl,
    challenge: bearerChallenge(settings),
    stepUpChallenge: stepUpChallenge(settings),
    sessionMayAuthenticate: settings.stateless,
    acceptsForgeBearers: settings.acceptsForgeBearers,
    logger,
    events,
  });

  // docs/spec.md stateless rule 7: no in-app limiter in stateless mode, unless replicas share a store (D37).
  const limits = !settings.stateless || deps.stores?.shared;
  const limited = ipLimited(
    limits
      ? {
          perMinute: settings.requestsPerMinutePerIp,
          now,
          ipOf: deps.ipOf,
          refusals: deps.refusals,
          openStore: deps.stores?.shared ? deps.stores.open : undefined,
        }
      : undefined,
  );
  // Single use of codes and refresh tokens (D23, D37): in memory per replica, or across replicas.
  const once = (use: string, max: number) => new ReplayGuard(now, max, deps.stores ? { store: deps.stores.open(max), use } : undefined);
  const register = limited('register', registerHandler({ clients, ipOf: deps.ipOf, logger, events }));
  const authorize = limited('authorize', authorizeHandler(flow));
  const consent = limited('consent', consentDecisionHandler(flow));
  const callback = limited('callback', callbackHandler(flow));
  // A refresh repeated within its grace period gets the first answer (D23): remembered sealed, in
  // memory per replica, or in the shared store so that a repeat on another replica finds it (D37).
  const reuse = new RefreshReuse<RefreshOutcome>(
    tokenSealer,
    now,
    deps.stores ? { store: deps.stores.open(MAX_REMEMBERED_REFRESHES), shared: deps.stores.shared } : {},
  );
  const token = limited(
    'token',
    tokenHandler({
      settings,
      clients,
      vault,
      guard: once('code', MAX_GUARDED_CODES),
      refreshGuard: once('refresh', MAX_GUARDED_REFRESH_TOKENS),
      reuse,
      tokens,
      forge,
      logger,
      now,
      events,
    }),
  );
  const prm = protectedResourceMetadata(settings);
  const asMetadata = authorizationServerMetadata(settings);

  const routes = new Elysia({ name: 'oauth' })
    .get(PRM_PATH, () => metadataResponse(prm))
    .get(`${PRM_PATH}/mcp`, () => metadataResponse(prm))
    .get(AS_METADATA_PATH, () => metadataResponse(asMetadata))
    .options(PRM_PATH, publicPreflight)
    .options(`${PRM_PATH}/mcp`, publicPreflight)
    .options(AS_METADATA_PATH, publicPreflight)
    .options('/register', publicPreflight)
    .options('/token', publicPreflight)
    .post('/register', async ({ request }) => withPublicCors(await register(request)), { parse: 'none' })
    .get('/authorize', ({ request }) => authorize(request))
    .post('/consent', ({ request }) => consent(request), { parse: 'none' })
    .get('/callback', ({ request }) => callback(request))
    .post('/token', async ({ request }) => withPublicCors(await token(request)), { parse: 'none' });
  return { callers, routes };
}
