// The prelude's call of the SDK's classification (src/http/lane.ts, D27): on every generated
// request it must route exactly as the SDK's own isLegacyRequest does, and it tells the bodies that
// are no JSON-RPC message at all.
import { describe, expect, test } from 'bun:test';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { classifyPost, isNoMessage } from '../src/http/lane';

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

const ENVELOPE = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const MODERN_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: ENVELOPE } };
const LEGACY_LIST = { jsonrpc: '2.0', id: 3, method: 'tools/list' };

describe('classifyPost', () => {
  test.each([
    ['null', null],
    ['a string', 'abc'],
    ['a number', 123],
    ['an empty object', {}],
    ['an id alone', { jsonrpc: '2.0', id: 9 }],
    ['a method that is not a string', { jsonrpc: '2.0', id: 8, method: 9 }],
    ['params that are a list', { ...LEGACY_LIST, params: [] }],
    ['a batch with a member that is no message', [LEGACY_LIST, 1]],
  ])('%s: no JSON-RPC message', (_, body) => {
    const outcome = classifyPost(post(body), body);
    expect(isNoMessage(outcome)).toBe(true);
    expect(outcome).toMatchObject({ kind: 'reject', httpStatus: 400, code: -32600 });
  });

  test.each([
    ['a legacy request', LEGACY_LIST, {}],
    ['a legacy batch', [LEGACY_LIST], {}],
    ['a posted response', { jsonrpc: '2.0', id: 1, result: {} }, {}],
    ['a modern request', MODERN_LIST, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' }],
    ['a modern request whose headers disagree (the modern lane answers it)', MODERN_LIST, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' }],
    ['a batch holding a 2026-07-28 request (messages, in a batch the modern lane refuses)', [MODERN_LIST], {}],
  ])('%s: messages', (_, body, headers) => {
    expect(isNoMessage(classifyPost(post(body, headers), body))).toBe(false);
  });

  test("every generated request is legacy to it exactly when the SDK's isLegacyRequest says so", async () => {
    const ids: unknown[] = [7, 'x', 1.5, null, undefined];
    const methods: unknown[] = ['initialize', 'tools/call', 'tools/list', 'server/discover', 'notifications/initialized', 7, undefined];
    const paramsValues: unknown[] = [
      undefined,
      {},
      { name: 'a' },
      { _meta: {} },
      { _meta: ENVELOPE },
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      [],
      null,
    ];
    const headerSets: Record<string, string>[] = [
      {},
      { 'mcp-protocol-version': '2025-06-18' },
      { 'mcp-protocol-version': '2026-07-28' },
      { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
      { 'mcp-method': 'tools/call', 'mcp-name': 'x' },
    ];
    const extras: Record<string, unknown>[] = [{}, { result: {} }, { error: { code: 1, message: 'm' } }];
    let count = 0;
    for (const id of ids)
      for (const method of methods)
        for (const params of paramsValues)
          for (const headers of headerSets)
            for (const extra of extras)
              for (const batched of [false, true]) {
                const message: Record<string, unknown> = { jsonrpc: '2.0', ...extra };
                if (id !== undefined) message.id = id;
                if (method !== undefined) message.method = method;
                if (params !== undefined) message.params = params;
                const body = batched ? [message] : message;
                const ours = classifyPost(post(body, headers), body).kind === 'legacy';
                const sdk = await isLegacyRequest(post(body, headers), body);
                if (ours !== sdk)
                  throw new Error(`classifyPost says legacy=${ours}, isLegacyRequest ${sdk}: ${JSON.stringify(body)} ${JSON.stringify(headers)}`);
                count++;
              }
    expect(count).toBeGreaterThan(4000);
  });
});
