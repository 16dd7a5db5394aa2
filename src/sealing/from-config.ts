// The deployment's sealer: keys derived once at start-up. With OAUTH_STATELESS_SECRET set it uses
// that secret in every mode, so every replica opens every value and the OAuth tokens this server
// issues survive a restart (D23); otherwise a random per-process secret, since only this process
// issues and reads its values.
import type { Config } from '../config/load';
import { Sealer } from './sealer';

export async function sealerFromConfig(config: Config, now?: () => number): Promise<Sealer> {
  const shared = config.OAUTH_STATELESS_SECRET;
  return Sealer.create({
    secret: shared ?? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url'),
    previousSecret: shared ? config.OAUTH_STATELESS_SECRET_PREVIOUS : undefined,
    ttlSeconds: {
      cid: config.OAUTH_STATELESS_CLIENT_TTL_SECONDS,
      ps: config.OAUTH_STATELESS_PENDING_TTL_SECONDS,
      pc: config.OAUTH_STATELESS_STORED_TTL_SECONDS,
      sid: config.statelessSessionTtlSeconds,
      dl: config.DOWNLOAD_TOKEN_TTL_SECONDS,
      at: config.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      rt: config.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      cf: config.FORGE_CONFIRM_TTL_SECONDS,
    },
    now,
  });
}
