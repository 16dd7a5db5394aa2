// The host of a refused X-Forge-API-URL as it may appear in a log line (D5, D8). A refused
// value is hostile by definition and a token can be written into its host, so only a name that
// parses as a hostname is logged: DNS labels of letters, digits and hyphens (at most 253
// characters), or an IP literal, and never one holding a credential the request carried or a label
// shaped like a GitLab token. Anything else is logged as `invalid`.

const MAX_HOST_LENGTH = 253;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]{2,45}\]$/;
/** GitLab's token prefixes (personal, OAuth, deploy, runner, CI job, trigger, feed, incoming mail, agent, SCIM, feature flags). */
const TOKEN_LABEL = /^(?:glpat|gloas|gldt|glrt|glrtr|glcbt|glptt|glft|glimt|glagent|glsoat|glffct|gltst|glwt)-/;

const INVALID_HOST = 'invalid';

export function loggableHost(raw: string, credentials: readonly string[] = []): string {
  let host: string;
  try {
    host = new URL(raw.trim()).hostname.toLowerCase();
  } catch {
    return INVALID_HOST;
  }
  if (host === '' || host.length > MAX_HOST_LENGTH) return INVALID_HOST;
  if (!IPV6_LITERAL.test(host)) {
    const labels = host.replace(/\.$/, '').split('.');
    if (!labels.every((label) => LABEL.test(label) && !TOKEN_LABEL.test(label))) return INVALID_HOST;
  }
  for (const credential of credentials) {
    if (credential.length > 0 && host.includes(credential.toLowerCase())) return INVALID_HOST;
  }
  return host;
}
