// The client a per-address limit or quota counts (D10): an IPv4 address is one client; an IPv6
// address counts by its /64, the block one subscriber or one host is given (a host picks any
// interface id in it at will, so counting whole addresses would give one client 2^64 budgets);
// an IPv4-mapped IPv6 address (::ffff:a.b.c.d, what a dual-stack socket reports for an IPv4 peer)
// is that IPv4 address. Every spelling of one address gives one key: compressed or not, upper or
// lower case, leading zeros, an embedded dotted IPv4 tail, a zone id (%eth0), brackets. Anything
// else (a name, "unknown", a malformed value from X-Forwarded-For) is its own key, lower-cased.

/** The key counted for `address`: `a.b.c.d`, `xxxx:xxxx:xxxx:xxxx::/64`, or the value itself. */
export function clientKey(address: string): string {
  let value = address.trim().toLowerCase();
  if (value.startsWith('[') && value.endsWith(']')) value = value.slice(1, -1);
  const zone = value.indexOf('%');
  if (zone >= 0) value = value.slice(0, zone);
  if (!value.includes(':')) return IPV4.test(value) ? (ipv4(value) ?? value) : value;
  const groups = ipv6Groups(value);
  if (!groups) return value;
  // ::ffff:a.b.c.d (mapped) counts as the IPv4 address.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 0xff}.${groups[7] >> 8}.${groups[7] & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** A dotted IPv4 address in its one spelling (no leading zeros), or undefined when one part passes 255. */
function ipv4(value: string): string | undefined {
  const parts = value.split('.').map(Number);
  return parts.every((p) => p <= 255) ? parts.join('.') : undefined;
}

/** The eight 16-bit groups of an IPv6 address, or undefined when it is not one. */
function ipv6Groups(value: string): number[] | undefined {
  let text = value;
  const tail: number[] = [];
  // A dotted IPv4 tail stands for the last two groups.
  const lastColon = text.lastIndexOf(':');
  const last = text.slice(lastColon + 1);
  if (last.includes('.')) {
    if (!IPV4.test(last)) return undefined;
    const parts = last.split('.').map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    tail.push((parts[0] << 8) | parts[1], (parts[2] << 8) | parts[3]);
    // Drop the tail and its colon, but keep a `::` before it whole ("::1.2.3.4" → "::").
    text = text[lastColon - 1] === ':' ? text.slice(0, lastColon + 1) : text.slice(0, lastColon);
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    for (const group of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(group)) return undefined;
      out.push(parseInt(group, 16));
    }
    return out;
  };
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  if (!head || !rest) return undefined;
  const given = head.length + rest.length + tail.length;
  if (halves.length === 1) return given === 8 ? [...head, ...tail] : undefined;
  if (given > 7) return undefined;
  return [...head, ...new Array<number>(8 - given).fill(0), ...rest, ...tail];
}
