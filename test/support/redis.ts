// A real redis-server for tests (D37): Debian's package (.ci/run installs it), on a free loopback
// port, with a temporary directory and no persistence; it can be killed and started again on the
// same port to test an outage. Nothing is mocked.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisClient } from 'bun';

export interface RealRedis {
  port: number;
  url: string;
  /** A plain client for looking at what the server holds (KEYS, PTTL…). */
  client(): Promise<RedisClient>;
  /** Kills the server (SIGKILL: an outage, not a shutdown). */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export function redisServerInstalled(): boolean {
  return Bun.which('redis-server') !== null;
}

/** A port nothing listens on right now. */
function freePort(): number {
  const probe = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response() });
  const port = Number(probe.port);
  probe.stop(true);
  return port;
}

async function waitForPing(port: number, password?: string): Promise<void> {
  for (let i = 0; i < 250; i++) {
    const c = new RedisClient(`redis://${password ? `:${password}@` : ''}127.0.0.1:${port}`, {
      enableOfflineQueue: false,
      autoReconnect: false,
      connectionTimeout: 500,
    });
    try {
      await c.connect();
      if ((await c.send('PING', [])) === 'PONG') return;
    } catch {
      // not listening yet
    } finally {
      c.close();
    }
    await Bun.sleep(20);
  }
  throw new Error(`redis-server on ${port} did not start`);
}

export async function startRedis(options: { password?: string } = {}): Promise<RealRedis> {
  if (!redisServerInstalled()) throw new Error('redis-server is not installed: apt-get install -y redis-server (bash .ci/run does)');
  const dir = mkdtempSync(join(tmpdir(), 'forge-mcp-redis-'));
  const port = freePort();
  const args = [
    'redis-server',
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
    ...(options.password ? ['--requirepass', options.password] : []),
  ];
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  const start = async () => {
    proc = Bun.spawn(args, { stdout: 'ignore', stderr: 'ignore', stdin: 'ignore' });
    await waitForPing(port, options.password);
  };
  await start();
  const clients: RedisClient[] = [];
  const kill = async () => {
    proc?.kill('SIGKILL');
    await proc?.exited;
    proc = undefined;
  };
  return {
    port,
    url: `redis://${options.password ? `:${options.password}@` : ''}127.0.0.1:${port}`,
    client: async () => {
      const c = new RedisClient(`redis://${options.password ? `:${options.password}@` : ''}127.0.0.1:${port}`);
      await c.connect();
      clients.push(c);
      return c;
    },
    kill,
    restart: start,
    stop: async () => {
      for (const c of clients) c.close();
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
