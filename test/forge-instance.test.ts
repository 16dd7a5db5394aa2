// src/forge/instance.ts on its own: reading /metadata answers, and a forge that hangs or floods is
// "unknown" within the probe's own bounds, so no tool call waits on it for long.
import { afterAll, describe, expect, test } from 'bun:test';
import { createEndpoint } from '../src/forge/endpoint';
import { InstanceDirectory, instanceFrom, UNKNOWN_INSTANCE } from '../src/forge/instance';

const servers: { stop(force?: boolean): unknown }[] = [];
afterAll(() => Promise.all(servers.map((s) => s.stop(true))));

function forge(answer: (request: Request) => Response | Promise<Response>) {
  let requests = 0;
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => (requests++, answer(request)) });
  servers.push(server);
  return { apiUrl: `http://127.0.0.1:${server.port}/api/v4`, requests: () => requests };
}

const credential = { kind: 'private' as const, token: 'glpat-instance-test-000000' };

describe('instanceFrom', () => {
  test.each([
    [
      { version: '16.7.0', enterprise: false },
      { edition: 'ce', version: { major: 16, minor: 7 }, versionText: '16.7.0' },
    ],
    [
      { version: '17.6.0-ee', enterprise: true },
      { edition: 'ee', version: { major: 17, minor: 6 }, versionText: '17.6.0-ee' },
    ],
    [
      { version: '17.7.0-pre', enterprise: true },
      { edition: 'ee', version: { major: 17, minor: 7 }, versionText: '17.7.0-pre' },
    ],
    // /version of a release before `enterprise`: the -ee suffix tells an EE build; no suffix tells nothing.
    [{ version: '15.1.2-ee' }, { edition: 'ee', version: { major: 15, minor: 1 }, versionText: '15.1.2-ee' }],
    [{ version: '15.1.2' }, { edition: null, version: { major: 15, minor: 1 }, versionText: '15.1.2' }],
  ])('%j', (body, expected) => {
    expect(instanceFrom(body)).toEqual(expected as never);
  });

  test.each([[null], [[]], ['text'], [{ version: 17 }], [{ version: 'x'.repeat(500) }], [{ version: '17.6.0; drop' }]])('%j is unknown', (body) => {
    expect(instanceFrom(body)).toBe(UNKNOWN_INSTANCE);
  });
});

describe('InstanceDirectory', () => {
  test('a forge that never answers is unknown once the probe times out, and is not asked again at once', async () => {
    const hanging = forge(() => new Promise<Response>(() => {}));
    const directory = new InstanceDirectory();
    const endpoint = createEndpoint(hanging.apiUrl, { rejectUnauthorized: true, timeoutMs: 200 });
    expect(await directory.lookup(endpoint, credential)).toBe(UNKNOWN_INSTANCE);
    expect(await directory.lookup(endpoint, credential)).toBe(UNKNOWN_INSTANCE);
    expect(hanging.requests()).toBe(1);
  });

  test("an endless body is abandoned at the probe's small limit", async () => {
    const flooding = forge(
      () =>
        new Response(new ReadableStream({ pull: (c) => c.enqueue(new TextEncoder().encode('{"version":"'.padEnd(65536, 'x'))) }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    const directory = new InstanceDirectory();
    expect(await directory.lookup(createEndpoint(flooding.apiUrl, { rejectUnauthorized: true, timeoutMs: 5000 }), credential)).toBe(UNKNOWN_INSTANCE);
  });

  test('an unknown answer is asked again after the failure TTL; a known one is kept', async () => {
    let now = 0;
    let answer: unknown = { message: '403 Forbidden' };
    const flaky = forge(() => Response.json(answer, { status: (answer as { version?: string }).version ? 200 : 403 }));
    const directory = new InstanceDirectory({ now: () => now, failureTtlMs: 1000, ttlMs: 60_000 });
    const endpoint = createEndpoint(flaky.apiUrl, { rejectUnauthorized: true, timeoutMs: 5000 });
    expect(await directory.lookup(endpoint, credential)).toBe(UNKNOWN_INSTANCE);
    answer = { version: '16.0.0', enterprise: false };
    now = 1001;
    expect((await directory.lookup(endpoint, credential)).edition).toBe('ce');
    now = 50_000;
    expect((await directory.lookup(endpoint, credential)).edition).toBe('ce');
    expect(flaky.requests()).toBe(2);
  });
});
