// The store of D37 on Redis or Valkey, through Bun's built-in client (no dependency). Keys get
// the `forge-mcp:` namespace; every write carries a TTL (SET … PX, or PEXPIRE inside the scripts).
//
// Failure is bounded and observable: every call ends within `timeoutMs` (a hung store cannot
// hang a request), commands are never queued while disconnected (they fail at once), and a
// timed-out connection is dropped so replies cannot pile up behind a stalled server. The client
// does not reconnect by itself: the next call after `reconnectEveryMs` opens a new connection, and
// a probe does so in the background, so service resumes when the store returns, with no restart.
import { createHash } from 'node:crypto';
import { rootCertificates } from 'node:tls';
import { RedisClient } from 'bun';
import { StoreUnavailableError, type AddResult, type SharedStore } from './store';

export const KEY_PREFIX = 'forge-mcp:';

interface RedisStoreEvents {
  /** Each call: its operation, duration and whether the store answered. */
  operation?(name: string, seconds: number, ok: boolean): void;
  /** The store answered after failing (`up`), or failed (`reason`: a short code, never a key or value). */
  state?(up: boolean, reason?: string): void;
}

interface RedisStoreOptions {
  /** REDIS_URL, checked at start-up (redis-url.ts). */
  url: string;
  timeoutMs: number;
  /** PEM text of extra CA certificates for rediss:// (FORGE_CA_CERT_PATH). */
  caCert?: string;
  reconnectEveryMs?: number;
  /** How often a background PING checks the store (0: never; tests). */
  probeEveryMs?: number;
  events?: RedisStoreEvents;
}

// addWithin: the counter and its expiry in one atomic step (D10). A refused amount is not counted.
const ADD_WITHIN = `local n = tonumber(redis.call('GET', KEYS[1]) or '0')
local add = tonumber(ARGV[1])
if n + add > tonumber(ARGV[2]) then return {0, n} end
n = redis.call('INCRBY', KEYS[1], add)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return {1, n}`;
// deleteIfEqual: only the holder of a reservation releases it.
const DELETE_IF_EQUAL = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

interface Script {
  source: string;
  sha: string;
}
const script = (source: string): Script => ({ source, sha: createHash('sha1').update(source).digest('hex') });
const SCRIPTS = { addWithin: script(ADD_WITHIN), deleteIfEqual: script(DELETE_IF_EQUAL) };

/** A short, loggable reason: Bun's error code, or the first word of a server error (NOAUTH, OOM…). */
function reasonOf(error: unknown): string {
  if (error instanceof StoreUnavailableError) return error.reason;
  const e = error as { code?: string; message?: string };
  if (e.code && e.code !== 'ERR_REDIS_SERVER_ERROR') return e.code;
  const word = /^[A-Z][A-Z_]{1,30}\b/.exec(e.message ?? '')?.[0];
  return word ?? 'error';
}

export class RedisStore implements SharedStore {
  private client: RedisClient | undefined;
  private connecting: Promise<RedisClient> | undefined;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private lastReason = 'not connected yet';
  private readonly probe: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  /** Whether the last call was answered (state events are sent on changes to it, and on each failure). */
  private up = true;

  constructor(private readonly options: RedisStoreOptions) {
    const every = options.probeEveryMs ?? 5000;
    if (every > 0) {
      this.probe = setInterval(() => void this.ping().catch(() => {}), every);
      this.probe.unref?.();
    }
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const reply = await this.run('set_if_absent', (c) => c.send('SET', [KEY_PREFIX + key, value, 'PX', String(ttl(ttlMs)), 'NX']));
    return reply === 'OK';
  }

  async get(key: string): Promise<string | undefined> {
    const reply = await this.run('get', (c) => c.send('GET', [KEY_PREFIX + key]));
    return typeof reply === 'string' ? reply : undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) {
      await this.run('set', (c) => c.send('DEL', [KEY_PREFIX + key]));
      return;
    }
    await this.run('set', (c) => c.send('SET', [KEY_PREFIX + key, value, 'PX', String(ttl(ttlMs))]));
  }

  async deleteIfEqual(key: string, value: string): Promise<boolean> {
    return (await this.run('delete_if_equal', (c) => evalScript(c, SCRIPTS.deleteIfEqual, KEY_PREFIX + key, [value]))) === 1;
  }

  async addWithin(key: string, amount: number, limit: number, ttlMs: number): Promise<AddResult> {
    const reply = await this.run('add_within', (c) => evalScript(c, SCRIPTS.addWithin, KEY_PREFIX + key, [String(amount), String(limit), String(ttl(ttlMs))]));
    const [added, total] = reply as [number, number];
    return { added: added === 1, total: Number(total) };
  }

  /** PING within the timeout (readiness, and the background probe that reconnects). */
  async ping(): Promise<void> {
    await this.run('ping', (c) => c.send('PING', []));
  }

  close(): void {
    this.closed = true;
    if (this.probe) clearInterval(this.probe);
    this.drop();
  }

  /** One call: a connection (opened if needed), the command, all within timeoutMs. */
  private async run<T>(name: string, command: (client: RedisClient) => Promise<T>): Promise<T> {
    const started = performance.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreUnavailableError('timeout')), this.options.timeoutMs);
    });
    try {
      const work = this.connection().then(command);
      work.catch(() => {}); // settled later than the timeout: nobody waits for it any more
      const reply = await Promise.race([work, timeout]);
      this.options.events?.operation?.(name, (performance.now() - started) / 1000, true);
      this.markUp();
      return reply;
    } catch (error) {
      const reason = reasonOf(error);
      // A stalled connection is dropped: replies no longer pile up behind it, the next call reconnects.
      if (reason === 'timeout') this.drop();
      this.options.events?.operation?.(name, (performance.now() - started) / 1000, false);
      this.markDown(reason);
      throw error instanceof StoreUnavailableError ? error : new StoreUnavailableError(reason);
    } finally {
      clearTimeout(timer);
    }
  }

  private async connection(): Promise<RedisClient> {
    if (this.client?.connected) return this.client;
    if (this.connecting) return this.connecting;
    if (this.closed) throw new StoreUnavailableError('closed');
    const now = performance.now();
    // While the store is down, calls fail at once; one attempt per interval tries again.
    if (now - this.lastAttempt < (this.options.reconnectEveryMs ?? 1000)) throw new StoreUnavailableError(this.lastReason);
    this.lastAttempt = now;
    this.connecting = this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<RedisClient> {
    this.drop();
    const tls = this.options.url.startsWith('rediss:') && this.options.caCert ? { tls: { ca: [...rootCertificates, this.options.caCert] } } : {};
    const client = new RedisClient(this.options.url, {
      enableOfflineQueue: false,
      autoReconnect: false,
      connectionTimeout: Math.max(1000, this.options.timeoutMs * 4),
      ...tls,
    });
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    try {
      await client.connect();
    } catch (error) {
      client.close();
      throw error;
    }
    if (this.closed) {
      client.close();
      throw new StoreUnavailableError('closed');
    }
    this.client = client;
    return client;
  }

  private drop(): void {
    const client = this.client;
    this.client = undefined;
    client?.close();
  }

  private markUp(): void {
    if (this.up) return;
    this.up = true;
    this.options.events?.state?.(true);
  }

  private markDown(reason: string): void {
    this.lastReason = reason;
    this.up = false;
    this.options.events?.state?.(false, reason);
  }
}

/** Whole milliseconds, at least 1 (PX refuses 0). */
const ttl = (ms: number) => Math.max(1, Math.ceil(ms));

async function evalScript(client: RedisClient, s: Script, key: string, args: string[]): Promise<unknown> {
  try {
    return await client.send('EVALSHA', [s.sha, '1', key, ...args]);
  } catch (error) {
    if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
    return client.send('EVAL', [s.source, '1', key, ...args]);
  }
}
