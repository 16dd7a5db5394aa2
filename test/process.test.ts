// The server as a process: start-up refusals with exit code 2 and one line naming the setting,
// --help, a full MCP session over a real port, stdio with the static token, and SIGTERM.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { SEED, TOKENS, startFakeForge, type FakeForge } from './support/fake-forge';
import { connect, structured } from './support/mcp-client';
import { ENTRY, runToExit, startServer } from './support/process';
import { DEFAULT_TOOLS } from '../src/tools/default-set';
import { ALL_TOOLS } from '../src/tools/catalog';

setDefaultTimeout(20_000);
let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(() => forge.stop());

describe('start-up refusals (exit 2, one line naming the setting)', () => {
  test.each([
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', PORT: 'eighty' }, [], 'PORT'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true' }, ['--max-sessions=-1'], 'MAX_SESSIONS'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true' }, ['--bogus=1'], '--bogus'],
    [{ REMOTE_AUTHORIZATION: 'true' }, [], 'STREAMABLE_HTTP'],
    [
      { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', OAUTH_STATELESS_MODE: 'true', OAUTH_STATELESS_SECRET: 'dG9vLXNob3J0' },
      [],
      'OAUTH_STATELESS_SECRET',
    ],
    [{ STREAMABLE_HTTP: 'true' }, [], 'FORGE_PERSONAL_ACCESS_TOKEN'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', FORGE_CA_CERT_PATH: '/nonexistent/ca.pem' }, [], 'FORGE_CA_CERT_PATH'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', PORT: '0', HOST: '999.1.1.1' }, [], 'HOST'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', PORT: '0', HOST: '::zz' }, [], 'HOST'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', MCP_SERVER_URL: 'https://mcp.example.com/mcp' }, [], 'MCP_SERVER_URL'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', MCP_SERVER_URL: 'https://mcp.example.com/base/mcp/' }, [], 'MCP_SERVER_URL'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', OAUTH_STATELESS_SECRET_PREVIOUS: 'a'.repeat(43) }, [], 'OAUTH_STATELESS_SECRET_PREVIOUS'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', MCP_TRUST_PROXY: 'yes' }, [], 'MCP_TRUST_PROXY'],
    // A value with a line break still makes one line (D2); it cannot forge a second one.
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', PORT: '80\nforge-mcp: listening' }, [], 'PORT'],
    // So does a path the process could not open: the refusal names it, escaped.
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', FORGE_CA_CERT_PATH: '/nonexistent/ca.pem\nforge-mcp: listening' }, [], 'FORGE_CA_CERT_PATH'],
    [{ STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', AUDIT_LOG_PATH: '/nonexistent/dir/audit\r\nforge-mcp: listening' }, [], 'AUDIT_LOG_PATH'],
  ])('%p %p → names %s', async (env, args, setting) => {
    const { code, stderr, stdout } = await runToExit(args as string[], env as Record<string, string>);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith(`forge-mcp: ${setting}: `);
  });

  test('a port already in use → exit 2, one line naming PORT (no stack trace)', async () => {
    const taken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('taken') });
    try {
      const { code, stderr } = await runToExit([], { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', PORT: String(taken.port) });
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([`forge-mcp: PORT: ${taken.port} is already in use on 127.0.0.1`]);
    } finally {
      taken.stop(true);
    }
  });

  test('a refusal after log lines comes after them: the lines waiting for their write are not lost at the exit', async () => {
    const taken = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('taken') });
    try {
      // The ignored static token is logged as a warning before the port is tried (src/index.ts).
      const { code, stderr } = await runToExit([], {
        STREAMABLE_HTTP: 'true',
        REMOTE_AUTHORIZATION: 'true',
        FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.maintainer,
        PORT: String(taken.port),
      });
      expect(code).toBe(2);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(2);
      expect(JSON.parse(lines[0])).toMatchObject({ level: 'warn', event: 'setting_ignored' });
      expect(lines[1]).toBe(`forge-mcp: PORT: ${taken.port} is already in use on 127.0.0.1`);
    } finally {
      taken.stop(true);
    }
  });

  test('MCP_SERVER_URL must be the base URL: the message says to drop /mcp', async () => {
    const { stderr } = await runToExit([], { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', MCP_SERVER_URL: 'https://mcp.example.com/mcp' });
    expect(stderr).toContain('drop the trailing /mcp');
  });

  test('a static token given with REMOTE_AUTHORIZATION=true is not silently ignored: a warning at start-up', async () => {
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.maintainer });
    try {
      const warning = server
        .stderr()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.event === 'setting_ignored');
      expect(warning).toMatchObject({ level: 'warn', warning: expect.stringContaining('FORGE_PERSONAL_ACCESS_TOKEN is ignored') });
      expect(server.stderr()).not.toContain(TOKENS.maintainer);
    } finally {
      await server.stop();
    }
  });

  test('--help prints every setting and exits 0', async () => {
    const { code, stdout } = await runToExit(['--help']);
    expect(code).toBe(0);
    for (const name of ['PORT', 'REMOTE_AUTHORIZATION', 'MAX_SESSIONS', 'OAUTH_STATELESS_SECRET', 'FORGE_TOOLSETS']) expect(stdout).toContain(name);
    expect(stdout).toContain('--oauth-stateless-mode');
    // D40: the default set, and how to get the former default back.
    expect(stdout).toContain('FORGE_TOOLSETS (--forge-toolsets) [default: default]');
    expect(stdout).toContain('branches,issues gives the default of earlier releases');
  });
});

describe('HTTP server on a real port', () => {
  test('a full session: initialize, list, call, delete; logs hold no token; SIGTERM exits 0', async () => {
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: 'branches,issues', LOG_LEVEL: 'debug' });
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok' });

    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
    const { tools } = await session.client.listTools();
    expect(tools.length).toBeGreaterThan(10);
    const branch = structured<{ name: string }>(await session.call('get_branch', { project_id: SEED.projectPath, branch_name: 'feature/login' }));
    expect(branch.name).toBe('feature/login');
    const denied = await session.call('delete_branch', { project_id: String(SEED.project), branch_name: 'main' });
    expect(denied.isError).toBe(true);
    await session.close();
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(metrics).toContain('forge_mcp_tool_calls_total{tool="get_branch",outcome="ok"} 1');
    expect(metrics).toContain('forge_mcp_sessions_total 1');
    const refused = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Private-Token': 'short', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(refused.status).toBe(401);

    expect(await server.stop('SIGTERM')).toBe(0);
    const log = server.stderr();
    expect(log).toContain('"event":"tool_call"');
    expect(log).toContain('"event":"session_opened"');
    expect(log).not.toContain(TOKENS.maintainer);
    expect(log).not.toContain(session.transport.sessionId ?? 'no-session-id');
    for (const line of log.trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
  });

  test('a request in flight when SIGTERM arrives still gets its answer', async () => {
    const slow = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Promise<Response>((r) => setTimeout(() => r(Response.json({ name: 'main', commit: {} })), 800)),
    });
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: `http://127.0.0.1:${slow.port}/api/v4` });
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
    const pending = session.call('get_branch', { project_id: '1', branch_name: 'main' });
    await Bun.sleep(200);
    const exited = server.stop('SIGTERM');
    expect(structured<{ name: string }>(await pending).name).toBe('main');
    expect(await exited).toBe(0);
    slow.stop(true);
  });
});

/** One raw HTTP/1.0 exchange (no Host header), read until the server closes: [status line, headers, body]. */
async function rawExchange(port: number, request: string): Promise<{ status: number; head: string; body: string }> {
  const { connect: dial } = await import('node:net');
  const text = await new Promise<string>((resolve, reject) => {
    const socket = dial(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
  const split = text.indexOf('\r\n\r\n');
  return { status: Number(text.split(' ')[1]), head: text.slice(0, split), body: text.slice(split + 4) };
}

// A request without a Host header (HTTP/1.0, or an empty one) reaches the server as its bare path;
// on a server not bound to loopback no Host check refuses it, so every route must read that form.
test('HOST=0.0.0.0: requests without a Host header reach /mcp, its narrowed paths and the other routes', async () => {
  const server = await startServer({ HOST: '0.0.0.0', REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl });
  try {
    const port = Number(new URL(server.url).port);
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    for (const path of ['/mcp', '/mcp/readonly', '/mcp/x/issues']) {
      const answer = await rawExchange(
        port,
        `POST ${path} HTTP/1.0\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nPrivate-Token: ${TOKENS.maintainer}\r\nContent-Length: ${initialize.length}\r\n\r\n${initialize}`,
      );
      expect({ path, status: answer.status }).toEqual({ path, status: 200 });
      expect(answer.head.toLowerCase()).toContain('mcp-session-id:');
      expect(answer.body).toContain('"protocolVersion":"2025-06-18"');
    }
    const emptyHost = await rawExchange(
      port,
      `POST /mcp HTTP/1.1\r\nHost:\r\nConnection: close\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nPrivate-Token: ${TOKENS.maintainer}\r\nContent-Length: ${initialize.length}\r\n\r\n${initialize}`,
    );
    expect(emptyHost.status).toBe(200);
    const download = await rawExchange(port, 'GET /downloads/attachment?project_id=1&secret=x&filename=a.txt HTTP/1.0\r\n\r\n');
    expect(download.status).toBe(400);
    expect(JSON.parse(download.body).error.message).toContain('secret:');
    expect((await rawExchange(port, 'GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
    expect((await rawExchange(port, 'GET /nowhere HTTP/1.0\r\n\r\n')).status).toBe(404);
  } finally {
    await server.stop();
  }
});

// The runtime's own cap sits 64 KiB above MAX_REQUEST_BODY_BYTES: below it the route answers its
// JSON-RPC 413 without reading the body; above it the runtime refuses before any route runs and
// closes the connection, so a declared gigabyte is never drained.
test('a body declared over MAX_REQUEST_BODY_BYTES: the JSON-RPC 413, or past the runtime cap a bare 413 and a closed connection', async () => {
  const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, MAX_REQUEST_BODY_BYTES: '1024' });
  try {
    const port = Number(new URL(server.url).port);
    const head = (length: number) =>
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nPrivate-Token: ${TOKENS.maintainer}\r\nContent-Length: ${length}\r\n\r\n{"jsonrpc":`;
    const near = await rawExchange(port, head(2048).replace('HTTP/1.1\r\n', 'HTTP/1.1\r\nConnection: close\r\n'));
    expect(near.status).toBe(413);
    expect(JSON.parse(near.body).error.message).toBe('Payload Too Large: request body exceeds 1024 bytes');
    const huge = await rawExchange(port, head(10 * 1024 ** 3));
    expect(huge.status).toBe(413);
    expect(huge.body).toBe('');
  } finally {
    await server.stop();
  }
});

// D2: an empty flag is not given, as an empty variable is; --forge-toolsets= once started a server
// listing no tools at all.
test('--forge-toolsets= (empty) serves the default set, as FORGE_TOOLSETS= does (D40)', async () => {
  const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl, FORGE_TOOLSETS: '' }, ['--forge-toolsets=']);
  try {
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
    const { tools } = await session.client.listTools();
    const defaults = ALL_TOOLS.filter((tool) => DEFAULT_TOOLS.has(tool.name)).map((tool) => tool.name);
    expect(defaults.length).toBe(DEFAULT_TOOLS.size);
    expect(tools.map((tool) => tool.name).sort()).toEqual(defaults.sort());
    await session.close();
  } finally {
    await server.stop();
  }
});

test('SIGINT also shuts down cleanly with exit code 0', async () => {
  const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: forge.apiUrl });
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  expect(await server.stop('SIGINT')).toBe(0);
  expect(server.stderr()).toContain('"event":"shutdown","signal":"SIGINT"');
});

describe('stdio transport', () => {
  test('speaks MCP on stdin/stdout with the static token', async () => {
    const transport = new StdioClientTransport({
      command: 'bun',
      args: ['run', ENTRY],
      env: {
        PATH: process.env.PATH ?? '',
        FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.developer,
        FORGE_API_URL: forge.apiUrl,
        FORGE_TOOLSETS: 'branches',
        LOG_LEVEL: 'error',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio-test', version: '1' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'get_branch', arguments: { project_id: String(SEED.project), branch_name: 'develop' } });
    expect((result.structuredContent as { name: string }).name).toBe('develop');
    expect(forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
    await client.close();
  });
});
