// The SSRF guard of Client ID Metadata Documents (D28): which addresses are refused, that every
// resolved address counts, that the fetch connects to the checked address and nowhere else, and
// which client id URLs are refused before anything is resolved. No test here opens a connection:
// names resolve through an injected resolver and the transport is a spy.
import { describe, expect, test } from 'bun:test';
import { silentLogger } from '../src/logging/logger';
import { MetadataDocuments } from '../src/oauth/cimd';
import { MemoryDocumentCache } from '../src/oauth/cimd-cache';
import { documentUrl } from '../src/oauth/cimd-document';
import type { Transport } from '../src/oauth/cimd-transport';
import { addressKind, checkHost, type ResolvedAddress } from '../src/oauth/ssrf-guard';

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

describe('addresses', () => {
  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'shared (carrier-grade NAT)'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fc00::1', 'unique-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['2002:c0a8:0101::1', 'private'],
    ['2001:db8::1', 'documentation'],
  ])('%s is refused as %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  test.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '2606:4700::1111', '::ffff:93.184.216.34'])('%s is public', (address) => {
    expect(addressKind(address)).toBeUndefined();
  });
});

describe('hosts', () => {
  test('one non-public address among public ones refuses the host', async () => {
    const check = await checkHost('docs.example', async () => [v4('93.184.216.34'), v6('fd00::1')], false);
    expect(check).toEqual({ ok: false, reason: 'its host resolves to a unique-local address, which this server does not fetch from' });
  });

  test('loopback passes only with the insecure-loopback allowance, and private never does', async () => {
    expect((await checkHost('127.0.0.1', async () => [], false)).ok).toBe(false);
    expect(await checkHost('127.0.0.1', async () => [], true)).toEqual({ ok: true, address: v4('127.0.0.1') });
    expect(await checkHost('[::1]', async () => [], true)).toEqual({ ok: true, address: v6('::1') });
    expect((await checkHost('10.0.0.1', async () => [], true)).ok).toBe(false);
    expect((await checkHost('localhost', async () => [v4('127.0.0.1'), v4('192.168.0.2')], true)).ok).toBe(false);
  });

  test('a name that does not resolve is refused', async () => {
    expect(
      await checkHost(
        'nowhere.example',
        async () => {
          throw new Error('ENOTFOUND');
        },
        false,
      ),
    ).toEqual({ ok: false, reason: 'its host name does not resolve' });
    expect(await checkHost('nowhere.example', async () => [], false)).toEqual({ ok: false, reason: 'its host name does not resolve' });
  });
});

describe('client id URLs', () => {
  test.each([
    ['http://docs.example/client.json', 'the client_id URL must use https'],
    ['http://127.0.0.1:8080/client.json', 'the client_id URL must use https'],
    ['https://user:pw@docs.example/client.json', 'the client_id URL must not contain credentials'],
    ['https://docs.example/', 'the client_id URL must have a path'],
    ['https://docs.example:8443/client.json', 'the client_id URL must use the default https port'],
    ['https://docs.example:443/client.json', 'the client_id URL must be written in its plain form (https://docs.example/client.json)'],
    ['https://docs.example/a/../client.json', 'the client_id URL must be written in its plain form (https://docs.example/client.json)'],
    ['https://docs.example/client.json#x', 'the client_id URL must not contain a fragment'],
    ['https://0x7f000001/client.json', 'the client_id URL must be written in its plain form (https://127.0.0.1/client.json)'],
    ['https://DOCS.example/client.json', 'the client_id URL must be written in its plain form (https://docs.example/client.json)'],
    ['https://', 'the client_id is not a valid URL'],
  ])('%s is refused: %s', (id, reason) => {
    expect(documentUrl(id, false)).toEqual({ ok: false, reason });
  });

  test('the insecure-loopback allowance admits http to loopback hosts on any port, nothing else', () => {
    for (const id of ['http://127.0.0.1:8080/client.json', 'http://localhost:3000/c', 'http://[::1]:9/c']) expect(documentUrl(id, true).ok).toBe(true);
    expect(documentUrl('http://docs.example/client.json', true)).toEqual({ ok: false, reason: 'the client_id URL must use https' });
    expect(documentUrl('https://docs.example:8443/client.json', true)).toEqual({ ok: false, reason: 'the client_id URL must use the default https port' });
  });
});

describe('fetching goes to the checked address only', () => {
  const id = 'https://docs.example/client.json';
  const goodBody = JSON.stringify({ client_id: id, client_name: 'Docs', redirect_uris: ['https://docs.example/cb'] });

  function setup(addresses: ResolvedAddress[], allowLoopback = false) {
    const resolved: string[] = [];
    const connections: { url: string; address: ResolvedAddress }[] = [];
    const transport: Transport = async (url, address) => {
      connections.push({ url: url.href, address });
      return { ok: true, status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: goodBody };
    };
    const documents = new MetadataDocuments({
      allowLoopback,
      cache: new MemoryDocumentCache(),
      logger: silentLogger,
      resolve: async (host) => {
        resolved.push(host);
        return addresses;
      },
      transport,
    });
    return { documents, resolved, connections };
  }

  test('a public host: resolved once, then the request goes to that very address', async () => {
    const { documents, resolved, connections } = setup([v4('93.184.216.34')]);
    expect(await documents.resolve(id)).toEqual({ ok: true, value: { clientName: 'Docs', redirectUris: ['https://docs.example/cb'] } });
    expect(resolved).toEqual(['docs.example']);
    expect(connections).toEqual([{ url: id, address: v4('93.184.216.34') }]);
  });

  test.each([
    ['loopback', [v4('127.0.0.1')]],
    ['private', [v4('10.0.0.7')]],
    ['link-local (cloud metadata)', [v4('169.254.169.254')]],
    ['IPv4-mapped loopback', [v6('::ffff:127.0.0.1')]],
    ['unique-local', [v6('fd00::5')]],
    ['a public and a private address', [v4('93.184.216.34'), v4('192.168.0.9')]],
  ])('a host resolving to %s is refused before any connection', async (_, addresses) => {
    const { documents, connections } = setup(addresses);
    const result = await documents.resolve(id);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.reason).toMatch(
      /^the client metadata document cannot be fetched: its host resolves to an? [a-z -]+ address, which this server does not fetch from$/,
    );
    expect(connections).toEqual([]);
  });

  test.each(['https://127.0.0.1/client.json', 'https://[::1]/client.json', 'https://10.0.0.1/client.json', 'https://169.254.169.254/latest/meta-data'])(
    'an address literal %s is refused without resolving or connecting',
    async (literal) => {
      const { documents, resolved, connections } = setup([v4('93.184.216.34')]);
      expect((await documents.resolve(literal)).ok).toBe(false);
      expect(resolved).toEqual([]);
      expect(connections).toEqual([]);
    },
  );

  // D28's 5 s bound the whole fetch, the name's resolution included: a host whose DNS answers
  // slowly, or never, must not hold /authorize past it, nor leave the connection a full 5 s more.
  describe('one deadline for resolving and fetching', () => {
    const limits = { timeoutMs: 200, maxBytes: 65_536 };
    function slowResolver(resolveAfterMs: number | undefined) {
      const given: number[] = [];
      const connections: string[] = [];
      const documents = new MetadataDocuments({
        allowLoopback: false,
        cache: new MemoryDocumentCache(),
        logger: silentLogger,
        limits,
        resolve: () => new Promise((resolve) => resolveAfterMs !== undefined && setTimeout(() => resolve([v4('93.184.216.34')]), resolveAfterMs)),
        transport: async (url, _address, fetchLimits) => {
          connections.push(url.href);
          given.push(fetchLimits.timeoutMs);
          return { ok: true, status: 200, headers: new Headers(), body: goodBody };
        },
      });
      return { documents, given, connections };
    }

    test('a name that never resolves is given up at the deadline, and nothing is fetched', async () => {
      const { documents, connections } = slowResolver(undefined);
      const started = Date.now();
      expect(await documents.resolve(id)).toEqual({ ok: false, reason: 'the client metadata document did not arrive within 0.2 seconds' });
      expect(Date.now() - started).toBeLessThan(900);
      expect(connections).toEqual([]);
    });

    test('a slow resolution leaves the fetch only what remains of the deadline', async () => {
      const { documents, given } = slowResolver(120);
      expect((await documents.resolve(id)).ok).toBe(true);
      expect(given.length).toBe(1);
      expect(given[0]).toBeGreaterThan(0);
      expect(given[0]).toBeLessThanOrEqual(limits.timeoutMs - 100);
    });
  });

  test('a refused URL is neither resolved nor fetched', async () => {
    const { documents, resolved, connections } = setup([v4('93.184.216.34')]);
    expect(await documents.resolve('http://docs.example/client.json')).toEqual({ ok: false, reason: 'the client_id URL must use https' });
    expect(resolved).toEqual([]);
    expect(connections).toEqual([]);
  });
});
