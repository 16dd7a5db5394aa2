// The prelude's shortcut for plain 2025-era requests (src/http/lane.ts): every request it
// admits must be one the SDK's own classification (isLegacyRequest) calls legacy, and the unusual
// ones must be left to the SDK. A generated set of variants checks the first rule beyond the table.
import { describe, expect, test } from 'bun:test';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import { isPlainLegacyRequest } from '../src/http/lane';

const post = (body: unknown, headers: Record<string, string> = {}) =>
  new Request('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const CALL = { jsonrpc: '2.0', id: 'a-1', method: 'tools/call', params: { name: 'get_issue', arguments: { project_id: '42', issue_iid: 1 } } };
const LIST = { jsonrpc: '2.0', id: 3, method: 'tools/list' };

const ADMITTED: [string, unknown, Record<string, string>?][] = [
  ['initialize', INIT],
  ['initialize naming 2024-11-05 in the header', INIT, { 'mcp-protocol-version': '2024-11-05' }],
  ['tools/call with a string id', CALL, { 'mcp-protocol-version': '2025-06-18' }],
  ['tools/list without params', LIST, { 'mcp-protocol-version': '2025-03-26' }],
  ['ping with empty params', { jsonrpc: '2.0', id: 9, method: 'ping', params: {} }],
];

const LEFT_TO_THE_SDK: [string, unknown, Record<string, string>?][] = [
  ['a modern header', CALL, { 'mcp-protocol-version': '2026-07-28' }],
  ['a later revision in the header', CALL, { 'mcp-protocol-version': '2027-01-01' }],
  ['an envelope claim', { ...CALL, params: { ...CALL.params, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }],
  ['any _meta (a progress token)', { ...CALL, params: { ...CALL.params, _meta: { progressToken: 1 } } }],
  ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }],
  ['a response', { jsonrpc: '2.0', id: 1, result: {} }],
  ['a method and a result', { ...LIST, result: {} }],
  ['a batch', [LIST]],
  ['jsonrpc 1.0', { ...LIST, jsonrpc: '1.0' }],
  ['a fractional id', { ...LIST, id: 1.5 }],
  ['a null id', { ...LIST, id: null }],
  ['a method that is not a string', { ...LIST, method: 7 }],
  ['params that are a list', { ...LIST, params: [] }],
  ['params null', { ...LIST, params: null }],
  ['no body', undefined],
];

describe('plain legacy requests', () => {
  for (const [label, body, headers] of ADMITTED) {
    test(`admitted, and legacy by the SDK's own classification: ${label}`, async () => {
      const request = post(body, headers);
      expect(isPlainLegacyRequest(request, body)).toBe(true);
      expect(await isLegacyRequest(request, body)).toBe(true);
    });
  }
  for (const [label, body, headers] of LEFT_TO_THE_SDK) {
    test(`left to the SDK: ${label}`, () => {
      expect(isPlainLegacyRequest(post(body, headers), body)).toBe(false);
    });
  }
  test('GET and DELETE are not plain requests (the prelude classifies them by method)', () => {
    for (const method of ['GET', 'DELETE']) expect(isPlainLegacyRequest(new Request('http://localhost/mcp', { method }), LIST)).toBe(false);
  });

  test('every generated variant the shortcut admits, the SDK classifies legacy', async () => {
    const ids: unknown[] = [0, 7, -1, 2 ** 53, 'x', '', 1.5, null, undefined, {}];
    const methods: unknown[] = ['initialize', 'tools/call', 'tools/list', 'ping', 'x', 7, undefined];
    const paramsValues: unknown[] = [undefined, {}, { name: 'a' }, { _meta: {} }, { _meta: null }, [], null, 'p'];
    const headerValues: (string | undefined)[] = [undefined, '2025-06-18', '2024-11-05', '2026-07-28', '2030-01-01', 'garbage', ''];
    const extras: Record<string, unknown>[] = [{}, { result: {} }, { error: { code: 1, message: 'm' } }, { extra: 1 }];
    let admitted = 0;
    for (const id of ids)
      for (const method of methods)
        for (const params of paramsValues)
          for (const version of headerValues)
            for (const extra of extras) {
              const body: Record<string, unknown> = { jsonrpc: '2.0', ...extra };
              if (id !== undefined) body.id = id;
              if (method !== undefined) body.method = method;
              if (params !== undefined) body.params = params;
              const request = post(body, version === undefined ? {} : { 'mcp-protocol-version': version });
              if (!isPlainLegacyRequest(request, body)) continue;
              admitted++;
              if (!(await isLegacyRequest(request, body))) throw new Error(`admitted but not legacy to the SDK: ${JSON.stringify(body)} header ${version}`);
            }
    expect(admitted).toBeGreaterThan(100);
  });
});
