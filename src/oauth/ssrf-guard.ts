// Where a Client ID Metadata Document may be fetched from (D28): only public unicast addresses.
// Every address a host resolves to is checked (one bad address refuses the host, so a name cannot
// mix a public and an internal address), and the fetch then connects to a checked address itself
// (cimd-transport.ts), so a second resolution (DNS rebinding) never happens. IPv4-mapped,
// IPv4-compatible, NAT64 and 6to4 IPv6 addresses are judged by the IPv4 address inside them.
import { isIP } from 'node:net';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (dns.lookup with `all`); injectable for tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** IPv4 ranges that are not public unicast: [network, prefix length, what it is]. */
const V4_REFUSED: ReadonlyArray<readonly [string, number, string]> = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'special-purpose'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'relay'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

function v4Number(address: string): number {
  return address.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
}

function v4Kind(address: string): string | undefined {
  const n = v4Number(address);
  for (const [base, bits, kind] of V4_REFUSED) {
    const size = 2 ** (32 - bits);
    const start = v4Number(base);
    if (n >= start && n < start + size) return kind;
  }
  return undefined;
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail expanded). */
function v6Groups(address: string): number[] {
  let text = address.toLowerCase().replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4Number(dotted[1]);
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
}

const v4Of = (hi: number, lo: number) => `${hi >>> 8}.${hi & 255}.${lo >>> 8}.${lo & 255}`;

function v6Kind(address: string): string | undefined {
  const g = v6Groups(address);
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (g.every((x) => x === 0)) return 'unspecified';
  if (zeroUpTo(7) && g[7] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible, deprecated), 64:ff9b::a.b.c.d (NAT64): the IPv4 inside decides.
  if (zeroUpTo(5) && g[5] === 0xffff) return v4Kind(v4Of(g[6], g[7]));
  if (zeroUpTo(6)) return v4Kind(v4Of(g[6], g[7])) ?? 'reserved';
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Kind(v4Of(g[6], g[7]));
  if (g[0] === 0x2002) return v4Kind(v4Of(g[1], g[2])); // 6to4
  if ((g[0] & 0xfe00) === 0xfc00) return 'unique-local';
  if ((g[0] & 0xffc0) === 0xfe80) return 'link-local';
  if ((g[0] & 0xffc0) === 0xfec0) return 'site-local';
  if ((g[0] & 0xff00) === 0xff00) return 'multicast';
  if (g[0] === 0x2001 && g[1] === 0x0db8) return 'documentation';
  if (g[0] === 0x0100 && g[1] === 0 && g[2] === 0 && g[3] === 0) return 'discard-only';
  if (g[0] === 0x2001 && g[1] < 0x0200) return 'special-purpose'; // Teredo, ORCHIDv2, benchmarking (2001::/23)
  if ((g[0] & 0xe000) !== 0x2000) return 'reserved'; // global unicast is 2000::/3 only
  return undefined;
}

/** Why an address is not public unicast ("loopback", "private", …), or undefined when it is. */
export function addressKind(address: string): string | undefined {
  const family = isIP(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (family === 4) return v4Kind(address);
  if (family === 6) return v6Kind(address.replace(/^\[|\]$/g, ''));
  return 'not an IP address';
}

type HostCheck = { ok: true; address: ResolvedAddress } | { ok: false; reason: string };

/**
 * The address to connect to for `hostname` (a name or an IP literal), after checking every address
 * it resolves to; `allowLoopback` (OAUTH_CIMD_ALLOW_INSECURE_LOOPBACK) also admits loopback ones.
 */
export async function checkHost(hostname: string, resolve: Resolver, allowLoopback: boolean): Promise<HostCheck> {
  const literal = hostname.replace(/^\[|\]$/g, '');
  let addresses: ResolvedAddress[];
  const family = isIP(literal);
  if (family !== 0) addresses = [{ address: literal, family: family as 4 | 6 }];
  else {
    try {
      addresses = await resolve(hostname);
    } catch {
      return { ok: false, reason: 'its host name does not resolve' };
    }
    if (addresses.length === 0) return { ok: false, reason: 'its host name does not resolve' };
  }
  for (const { address } of addresses) {
    const kind = addressKind(address);
    if (kind === undefined || (allowLoopback && kind === 'loopback')) continue;
    return { ok: false, reason: `its host resolves to a ${kind} address, which this server does not fetch from` };
  }
  return { ok: true, address: addresses[0] };
}
