// The client key of D10: IPv6 counted by /64, IPv4-mapped as IPv4, one key whatever the spelling.
import { describe, expect, test } from 'bun:test';
import { clientKey } from '../src/web/client-key';

describe('clientKey', () => {
  test.each([
    // IPv4, as it is, leading zeros dropped
    ['203.0.113.7', '203.0.113.7'],
    ['203.000.113.007', '203.0.113.7'],
    [' 203.0.113.7 ', '203.0.113.7'],
    // IPv6: the /64, whatever the interface id and the spelling
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aBcD:0:0:1', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['2001:db8:0:0:1::', '2001:db8:0:0::/64'],
    ['[2001:db8:1:2::5]', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['FE80::ABCD%25en0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['2001:db8:1:2:3:4:192.0.2.1', '2001:db8:1:2::/64'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
    // IPv4-mapped: the IPv4 address
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::FFFF:203.0.113.7', '203.0.113.7'],
    ['0:0:0:0:0:ffff:cb00:7107', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['[::ffff:203.0.113.7]', '203.0.113.7'],
    // not an address: its own key, never merged with an address's
    ['unknown', 'unknown'],
    ['2001:db8::1::2', '2001:db8::1::2'],
    ['2001:db8:1:2:3:4:5:6:7', '2001:db8:1:2:3:4:5:6:7'],
    ['::ffff:300.1.1.1', '::ffff:300.1.1.1'],
    ['12345::1', '12345::1'],
    ['999.1.1.1', '999.1.1.1'],
  ])('%p counts as %p', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  test('a thousand interface ids of one /64 are one client; the next /64 is another', () => {
    const keys = new Set(Array.from({ length: 1000 }, (_, i) => clientKey(`2001:db8:a:b:${i.toString(16)}:${(i * 7919).toString(16).slice(-4)}::${i % 9}`)));
    expect([...keys]).toEqual(['2001:db8:a:b::/64']);
    expect(clientKey('2001:db8:a:c::1')).not.toBe(clientKey('2001:db8:a:b::1'));
  });
});
