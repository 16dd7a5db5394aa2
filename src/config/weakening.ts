// The settings that weaken security, each named in a start-up warning (D47): a deployment may
// need one (a test forge with a self-signed certificate, local OAuth clients), but never without
// saying so where operators look. Pure: a function of the loaded settings; values are never
// repeated (a URL is reduced to its scheme and host).
import { isLoopbackBind, isLoopbackHost } from '../forge/url-parts';
import type { Settings } from './schema';

interface Weakening {
  readonly setting: string;
  readonly note: string;
}

/** The host of an http(s) URL, or undefined; credentials and paths are dropped. */
function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined;
  }
}

const plainHttpElsewhere = (url: string) => /^http:/i.test(url) && !isLoopbackHost(hostOf(url) ?? '');

export function weakeningSettings(s: Settings): Weakening[] {
  const found: Weakening[] = [];
  const add = (setting: string, note: string) => found.push({ setting, note });
  if (!s.RUNTIME_TLS_REJECT_UNAUTHORIZED) {
    add('RUNTIME_TLS_REJECT_UNAUTHORIZED', 'forge certificates are not verified: anyone on the path can read and change the traffic, tokens included');
  }
  for (const url of s.FORGE_API_URL) {
    if (plainHttpElsewhere(url)) add('FORGE_API_URL', `plain http to ${hostOf(url)}: callers' tokens travel unencrypted`);
  }
  if (s.ENABLE_DYNAMIC_API_URL) {
    for (const entry of s.FORGE_ALLOWED_HOSTS ?? []) {
      const text = entry.trim().toLowerCase();
      const explicitHttp = text.startsWith('http://');
      // A bare host:port other than 443 allows http too (D8).
      const portAllowsHttp = !/^https?:\/\//.test(text) && /:\d+$/.test(text) && !/:0*443$/.test(text);
      const host = hostOf(explicitHttp ? text : `http://${text.replace(/^https:\/\//, '')}`);
      if ((explicitHttp || portAllowsHttp) && host !== undefined && !isLoopbackHost(host)) {
        add('FORGE_ALLOWED_HOSTS', `an entry allows plain http to ${host}: tokens sent there travel unencrypted`);
      }
    }
  }
  if (s.FORGE_MCP_OAUTH && s.OAUTH_CIMD_ENABLED && s.OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK) {
    add('OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK', 'client metadata documents are fetched from loopback hosts over plain http: local testing only');
  }
  if (s.FORGE_MCP_OAUTH && !s.MCP_OAUTH_CONSENT) {
    add('MCP_OAUTH_CONSENT', 'no consent page: a client can have a signed-in user authorize it without being asked');
  }
  if (s.FORGE_ALLOW_QUICK_ACTIONS) {
    add(
      'FORGE_ALLOW_QUICK_ACTIONS',
      'text written through the tools may hold GitLab quick actions (/close, /merge …): a prompt-injected agent can act beyond the tool it called',
    );
  }
  // The static token behind a port others can reach: whoever reaches it acts as the token's owner.
  if (s.STREAMABLE_HTTP && !s.REMOTE_AUTHORIZATION && !s.FORGE_MCP_OAUTH && !isLoopbackBind(s.HOST)) {
    add('REMOTE_AUTHORIZATION', `off while listening on ${s.HOST}: every caller that reaches the port acts with FORGE_PERSONAL_ACCESS_TOKEN`);
  }
  if (s.OTEL_EXPORTER_OTLP_HEADERS !== undefined) {
    const endpoint = s.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? s.OTEL_EXPORTER_OTLP_ENDPOINT;
    if (endpoint !== undefined && plainHttpElsewhere(endpoint)) {
      add('OTEL_EXPORTER_OTLP_HEADERS', `sent over plain http to ${hostOf(endpoint)}: the receiver's key travels unencrypted`);
    }
  }
  return found;
}
