// The deployment's sealer, when stateless mode is on: keys derived once at start-up.
import type { Config } from '../config/load';
import { Sealer } from './sealer';

export async function sealerFromConfig(config: Config, now?: () => number): Promise<Sealer | undefined> {
  if (!config.OAUTH_STATELESS_MODE || !config.OAUTH_STATELESS_SECRET) return undefined;
  return Sealer.create({
    secret: config.OAUTH_STATELESS_SECRET,
    previousSecret: config.OAUTH_STATELESS_SECRET_PREVIOUS,
    ttlSeconds: {
      cid: config.OAUTH_STATELESS_CLIENT_TTL_SECONDS,
      ps: config.OAUTH_STATELESS_PENDING_TTL_SECONDS,
      pc: config.OAUTH_STATELESS_STORED_TTL_SECONDS,
      sid: config.statelessSessionTtlSeconds,
    },
    now,
  });
}
