// The compiled single binary (`bun run build`), not the sources: --help, a start-up refusal,
// a full MCP session over a real port against the fake forge, --healthcheck, stdio and SIGTERM.
// Bundling, minifying and bytecode must change nothing a client can see.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { builtBinary, removeBuiltBinary } from './support/binary';
import { SEED, TOKENS } from './support/fake-forge';
import { useHarness } from './support/harness';
import { connect, structured, toolError } from './support/mcp-client';
import { startServer } from './support/process';

// The first test builds the binary (a second or two, more on a busy machine).
setDefaultTimeout(120_000);
const h = useHarness({ FORGE_TOOLSETS: 'all' });
const P = String(SEED.project);
let binary: string;
beforeAll(async () => {
  binary = await builtBinary();
});
afterAll(removeBuiltBinary);

/** Runs the binary to completion with only the given environment. */
async function run(args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([binary, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

describe('the compiled binary', () => {
  test('--help prints usage and every setting, exits 0', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toStartWith('forge-mcp: MCP server for GitLab.');
    for (const text of ['--healthcheck', 'PORT (--port)', 'REMOTE_AUTHORIZATION', 'FORGE_TOOLSETS']) expect(stdout).toContain(text);
  });

  test('a bad setting stops start-up with exit 2 and one line naming it', async () => {
    const { code, stdout, stderr } = await run([], { STREAMABLE_HTTP: 'true', REMOTE_AUTHORIZATION: 'true', PORT: 'eighty' });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/^forge-mcp: PORT: /)]);
  });

  test('a full session over a real port: same tools as the sources, success, rejection, validation; --healthcheck; SIGTERM', async () => {
    const server = await startServer({ REMOTE_AUTHORIZATION: 'true', FORGE_API_URL: h.forge.apiUrl, FORGE_TOOLSETS: 'all', LOG_LEVEL: 'info' }, [], [binary]);
    const session = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.maintainer }, `${server.url}/mcp`);
    const reference = await h.as();
    expect(await session.client.listTools()).toEqual(await reference.client.listTools());
    h.forge.reset();

    expect(structured<{ name: string }>(await session.call('get_branch', { project_id: SEED.projectPath, branch_name: 'develop' })).name).toBe('develop');
    const guest = await connect({ handle: (r) => fetch(r) }, { 'Private-Token': TOKENS.guest }, `${server.url}/mcp`);
    expect(toolError(await guest.call('delete_branch', { project_id: P, branch_name: 'topic-02' })).kind).toBe('permission');
    const upstreamBefore = h.forge.requests.length;
    expect(toolError(await session.call('list_branches', { project_id: P, per_page: 101 }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'per_page: must be an integer from 1 to 100',
    });
    expect(h.forge.requests.length).toBe(upstreamBefore);
    await guest.close();
    await session.close();

    const port = new URL(server.url).port;
    expect(await run(['--healthcheck'], { PORT: port })).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(server.stderr()).toContain('"event":"shutdown","signal":"SIGTERM"');
    expect(server.stderr()).not.toContain(TOKENS.maintainer);
    const afterStop = await run(['--healthcheck'], { PORT: port });
    expect(afterStop.code).toBe(1);
    expect(afterStop.stderr).toStartWith('forge-mcp: unhealthy: ');
  });

  test('stdio with the static token', async () => {
    const transport = new StdioClientTransport({
      command: binary,
      args: [],
      env: {
        PATH: process.env.PATH ?? '',
        FORGE_PERSONAL_ACCESS_TOKEN: TOKENS.developer,
        FORGE_API_URL: h.forge.apiUrl,
        FORGE_TOOLSETS: 'branches',
        LOG_LEVEL: 'error',
      },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'binary-stdio-test', version: '1' });
    await client.connect(transport);
    const result = await client.callTool({ name: 'get_branch', arguments: { project_id: P, branch_name: 'main' } });
    expect((result.structuredContent as { name: string }).name).toBe('main');
    expect(h.forge.requests.at(-1)!.headers.get('private-token')).toBe(TOKENS.developer);
    await client.close();
  });
});
