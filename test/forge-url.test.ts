// X-Forge-API-URL: which URLs a caller may name (a table of hostile URLs), how they are
// normalized to /api/v4 (docs/spec.md dynamic API URL rules 2–4, D7/D8), and what of a refused
// one may be logged.
import { describe, expect, test } from 'bun:test';
import { createForgeUrlJudge, forgeUrlPolicy, FORGE_URL_REFUSALS } from '../src/auth/forge-url';
import { loggableHost } from '../src/auth/loggable-host';
import { normalizeApiUrl } from '../src/forge/api-url';

const policy = forgeUrlPolicy(
  createForgeUrlJudge(
    ['https://gitlab.example.com/api/v4', 'http://127.0.0.1:18080/api/v4', 'https://tls.example:443/api/v4'],
    [
      'git.corp.example:8443',
      'Other.Example',
      'http://[::1]:9000',
      'plain.example:80',
      'http://legacy.example:8080',
      'HTTPS://explicit.example/',
      'padded.example:0443',
      'tls-port.example:443',
    ],
  ),
);

export const HOSTILE_URLS: [string, string][] = [
  ['https://gitlab.example.com@evil.example', 'userinfo: the real host is evil.example'],
  ['https://evil.example@gitlab.example.com', 'userinfo in front of an allowed host'],
  ['https://user:pass@gitlab.example.com', 'credentials in the URL'],
  ['https://gitlab.example.com.evil.example', 'allowed name as a subdomain prefix'],
  ['https://evilgitlab.example.com', 'allowed name as a suffix'],
  ['https://evil.example#@gitlab.example.com', 'fragment hiding the host'],
  ['https://evil.example?@gitlab.example.com', 'query hiding the host'],
  ['https://gitlab.example.com\\@evil.example', 'backslash confusion'],
  ['https://gitlab%2eexample.com', 'percent-encoded dot in the host'],
  ['https://%67itlab.example.com', 'percent-encoded letter in the host'],
  ['http://gitlab.example.com', 'scheme downgrade to plain http (port 80 is not allowed)'],
  ['https://gitlab.example.com:8443', 'allowed host on another port'],
  ['http://127.0.0.1:18081', 'allowed address on another port'],
  ['http://2130706433:18080', '127.0.0.1 written as one number'],
  ['http://0x7f.0.0.1:18080', '127.0.0.1 written in hex'],
  ['http://127.1:18080', '127.0.0.1 shortened'],
  ['http://[::ffff:127.0.0.1]:18080', 'IPv4-mapped IPv6 form of an allowed address'],
  ['http://[0:0:0:0:0:0:0:1]:9000', 'IPv6 loopback written long'],
  ['https://git.corp.example', 'allowed host without its listed port'],
  ['https://plain.example', 'https on a host allowed only on port 80'],
  ['http://tls.example:443', 'scheme downgrade to the TLS port of a FORGE_API_URL entry'],
  ['http://tls.example', 'plain http to a https-only FORGE_API_URL entry'],
  ['http://gitlab.example.com:443', 'scheme downgrade on the explicit default https port'],
  ['https://127.0.0.1:18080', 'https to a FORGE_API_URL entry that is plain http'],
  ['http://other.example:443', 'plain http on the https port of a bare entry'],
  ['http://other.example', 'plain http to a bare entry (https on 443 only)'],
  ['https://[::1]:9000', 'https to an entry written with http://'],
  ['https://legacy.example:8080', 'https to an entry written with http://'],
  ['http://explicit.example', 'plain http to an entry written with https://'],
  ['http://padded.example:443', 'plain http to a padded https port'],
  ['http://tls-port.example:443', 'plain http to a host:443 entry (the TLS port takes https only)'],
  ['http://tls-port.example', 'plain http to a host:443 entry on port 80'],
  ['HTTP://GITLAB.EXAMPLE.COM:443', 'downgrade in capitals'],
  ['ftp://gitlab.example.com', 'not http(s)'],
  ['file:///etc/passwd', 'not http(s)'],
  ['javascript:alert(1)', 'not a URL of a host'],
  ['gitlab.example.com', 'no scheme'],
  ['//gitlab.example.com', 'scheme-relative'],
  ['https://gitlab.example.com/api/v4?private_token=x', 'query string'],
  ['https://', 'no host'],
  ['', 'empty'],
];

export const ACCEPTED_URLS: [string, string][] = [
  ['https://gitlab.example.com', 'https://gitlab.example.com/api/v4'],
  ['https://GitLab.Example.COM/', 'https://gitlab.example.com/api/v4'],
  ['https://gitlab.example.com.', 'https://gitlab.example.com/api/v4'],
  ['https://gitlab.example.com:443/api/v4', 'https://gitlab.example.com/api/v4'],
  ['https://gitlab.example.com/gitlab', 'https://gitlab.example.com/gitlab/api/v4'],
  ['http://127.0.0.1:18080', 'http://127.0.0.1:18080/api/v4'],
  ['https://git.corp.example:8443/api/v4/', 'https://git.corp.example:8443/api/v4'],
  // docs/spec.md rule 3 compares host and port: a host:port entry takes either scheme there.
  ['http://git.corp.example:8443', 'http://git.corp.example:8443/api/v4'],
  ['https://plain.example:80', 'https://plain.example:80/api/v4'],
  ['https://tls-port.example', 'https://tls-port.example/api/v4'],
  ['https://other.example', 'https://other.example/api/v4'],
  ['http://[::1]:9000/prefix', 'http://[::1]:9000/prefix/api/v4'],
  ['http://plain.example', 'http://plain.example/api/v4'],
  ['http://plain.example:80/x', 'http://plain.example/x/api/v4'],
  ['https://tls.example', 'https://tls.example/api/v4'],
  ['http://legacy.example:8080', 'http://legacy.example:8080/api/v4'],
  ['https://explicit.example', 'https://explicit.example/api/v4'],
  ['https://padded.example', 'https://padded.example/api/v4'],
  ['  https://gitlab.example.com  ', 'https://gitlab.example.com/api/v4'],
];

const judge = createForgeUrlJudge(['https://gitlab.example.com/api/v4', 'http://127.0.0.1:18080/api/v4'], ['git.corp.example:8443', 'tls-port.example:443']);

describe('a refused URL says why, and nothing of the value (issue 40, D8)', () => {
  const R = FORGE_URL_REFUSALS;
  test.each([
    ['ftp://gitlab.example.com', R.scheme],
    ['javascript:alert(1)', R.scheme],
    ['gitlab.example.com', R.notUrl],
    ['', R.notUrl],
    ['https://user:glpat-secretsecretsecret@gitlab.example.com', R.userinfo],
    ['https://gitlab.example.com@evil.example', R.userinfo],
    ['https://gitlab.example.com/api/v4?private_token=glpat-secretsecretsecret', R.queryOrFragment],
    ['https://gitlab.example.com/#glpat-secretsecretsecret', R.queryOrFragment],
    ['https://gitlab.example.com\\@evil.example', R.backslash],
    ['https://gitlab%2eexample.com', R.encodedHost],
    ['http://0x7f.0.0.1:18080', R.encodedHost],
    ['https://evil.example', R.host],
    ['https://glpat-secretsecretsecret.example', R.host],
    ['https://git.corp.example', R.port],
    ['http://127.0.0.1:18081', R.port],
    ['http://gitlab.example.com', R.schemeOnly],
    ['HTTP://GITLAB.EXAMPLE.COM./api/v4', R.schemeOnly],
    ['http://gitlab.example.com:443', R.schemeForHost],
    ['http://tls-port.example:443', R.schemeForHost],
  ])('%p → %p', (raw, why) => {
    const verdict = judge(raw);
    expect(verdict).toEqual({ refused: why });
    // The reason is one of the fixed texts: no part of the value (a token in its userinfo, query or host) comes back.
    expect(Object.values(R) as string[]).toContain((verdict as { refused: string }).refused);
    expect((verdict as { refused: string }).refused).not.toContain('glpat');
  });

  test('an allowed value is the normalized API URL, as the policy gives it', () => {
    expect(judge('https://git.corp.example:8443/gitlab')).toEqual({ apiUrl: 'https://git.corp.example:8443/gitlab/api/v4' });
    expect(judge('HTTPS://GITLAB.EXAMPLE.COM')).toEqual({ apiUrl: 'https://gitlab.example.com/api/v4' });
  });

  test('every hostile URL of the table is refused with one of the fixed reasons', () => {
    for (const [raw] of HOSTILE_URLS) {
      const verdict = judge(raw);
      expect('refused' in verdict).toBe(true);
      expect(Object.values(R) as string[]).toContain((verdict as { refused: string }).refused);
    }
  });
});

describe('hostile URLs are refused', () => {
  test.each(HOSTILE_URLS)('%s (%s)', (url) => {
    expect(policy(url)).toBeUndefined();
  });
});

describe('allowed URLs are normalized', () => {
  test.each(ACCEPTED_URLS)('%s → %s', (url, normalized) => {
    expect(policy(url)).toBe(normalized);
  });
});

describe('normalizeApiUrl', () => {
  test.each([
    ['https://h.example/api/v4', 'https://h.example/api/v4'],
    ['https://h.example/api/v4/', 'https://h.example/api/v4'],
    ['https://h.example', 'https://h.example/api/v4'],
    ['https://h.example/', 'https://h.example/api/v4'],
    ['https://h.example/gitlab', 'https://h.example/gitlab/api/v4'],
    ['https://h.example/gitlab/api/v4', 'https://h.example/gitlab/api/v4'],
    ['http://h.example:8080/x/y/', 'http://h.example:8080/x/y/api/v4'],
  ])('%s → %s', (url, normalized) => {
    expect(normalizeApiUrl(url)).toBe(normalized);
  });
});

describe('what a log line may say about a refused URL (D5)', () => {
  const TOKEN = 'glpat-Xy7fQ2mN9pL4kR8sT1vW';
  test.each([
    ['https://evil.example/api/v4', 'evil.example'],
    ['http://EVIL.example:8080', 'evil.example'],
    ['https://10.0.0.7', '10.0.0.7'],
    ['http://[::1]:9000', '[::1]'],
    ['https://xn--bcher-kva.example', 'xn--bcher-kva.example'],
    [`https://${TOKEN}.evil.example`, 'invalid'],
    [`https://evil.example.${TOKEN.toLowerCase()}`, 'invalid'],
    ['https://gloas-0123456789abcdef0123.evil.example', 'invalid'],
    ['https://glpat_Xy7fQ2mN9pL4kR8sT1vW.evil.example', 'invalid'],
    ['https://token_with_underscores.evil.example', 'invalid'],
    ['https://-leading-hyphen.example', 'invalid'],
    [`https://${'a'.repeat(64)}.example`, 'invalid'],
    [`https://${Array(60).fill('abcd').join('.')}`, 'invalid'],
    ['https://evil.example%2F@gitlab.example.com', 'gitlab.example.com'],
    ['https://', 'invalid'],
    ['', 'invalid'],
    ['..', 'invalid'],
    ['javascript:alert(1)', 'invalid'],
    ['file:///etc/passwd', 'invalid'],
    [`https://${'x'.repeat(70_000)}`, 'invalid'],
  ])('%s → %s', (url, logged) => {
    expect(loggableHost(url)).toBe(logged);
  });

  test('a host holding a credential of the request is not logged, in any case', () => {
    const own = 'mytoken0123456789abcd';
    expect(loggableHost(`https://a.${own}.example`, [own])).toBe('invalid');
    expect(loggableHost(`https://A.${own.toUpperCase()}.example`, [own])).toBe('invalid');
    expect(loggableHost('https://a.example', [own])).toBe('a.example');
  });
});
