// OAuth counters (D11; item 5 of the OAuth issue): registrations, metadata-document fetches,
// authorizations, token grants and refreshes, and bearer checks refused by reason. Filled by the
// OAuthEvents callback src/oauth/ is given; read by the JSON snapshot and the Prometheus text.
import type { OAuthEvent } from './oauth-events';

export class OAuthMetrics {
  registrations = 0;
  readonly metadataFetches = { ok: 0, refused: 0, failed: 0 };
  readonly authorizations = { approved: 0, denied: 0 };
  readonly tokenGrants = { ok: 0, refused: 0 };
  readonly tokenRefreshes = { ok: 0, refused: 0 };
  /** reason → count */
  readonly bearerRefusals = new Map<string, number>();

  record(event: OAuthEvent): void {
    switch (event.kind) {
      case 'registration':
        this.registrations++;
        break;
      case 'metadata_fetch':
        this.metadataFetches[event.outcome]++;
        break;
      case 'authorization':
        this.authorizations[event.outcome]++;
        break;
      case 'token':
        (event.grant === 'refresh_token' ? this.tokenRefreshes : this.tokenGrants)[event.outcome]++;
        break;
      case 'bearer_refused':
        this.bearerRefusals.set(event.reason, (this.bearerRefusals.get(event.reason) ?? 0) + 1);
        break;
    }
  }

  /** The `oauth` object of /metrics.json. */
  snapshot() {
    return {
      registrations: this.registrations,
      metadataFetches: { ...this.metadataFetches },
      authorizations: { ...this.authorizations },
      tokenGrants: { ...this.tokenGrants },
      tokenRefreshes: { ...this.tokenRefreshes },
      bearerRefusals: Object.fromEntries(this.bearerRefusals),
    };
  }
}

type MetricWriter = (name: string, type: 'counter', help: string, lines: string[]) => void;

const labelled = (name: string, label: string, values: Record<string, number>) =>
  Object.entries(values).map(([k, n]) => `forge_mcp_${name}{${label}="${k}"} ${n}`);

/** The `forge_mcp_oauth_…_total` counters in Prometheus text. */
export function oauthPrometheus(o: OAuthMetrics, metric: MetricWriter, escapeLabel: (s: string) => string): void {
  metric('oauth_registrations_total', 'counter', 'Clients registered at /register (DCR).', [`forge_mcp_oauth_registrations_total ${o.registrations}`]);
  metric(
    'oauth_metadata_fetches_total',
    'counter',
    'Client ID Metadata Document fetches by outcome (ok, refused, failed).',
    labelled('oauth_metadata_fetches_total', 'outcome', o.metadataFetches),
  );
  metric(
    'oauth_authorizations_total',
    'counter',
    'Authorizations by outcome: approved (Approve on the consent page, or sent straight to the forge with MCP_OAUTH_CONSENT=false), denied.',
    labelled('oauth_authorizations_total', 'outcome', o.authorizations),
  );
  metric(
    'oauth_token_grants_total',
    'counter',
    'authorization_code grants at /token by outcome (ok, refused).',
    labelled('oauth_token_grants_total', 'outcome', o.tokenGrants),
  );
  metric(
    'oauth_token_refreshes_total',
    'counter',
    'refresh_token grants at /token by outcome (ok, refused).',
    labelled('oauth_token_refreshes_total', 'outcome', o.tokenRefreshes),
  );
  metric(
    'oauth_bearer_refusals_total',
    'counter',
    'Bearers refused on /mcp by reason.',
    [...o.bearerRefusals].map(([reason, n]) => `forge_mcp_oauth_bearer_refusals_total{reason="${escapeLabel(reason)}"} ${n}`),
  );
}
