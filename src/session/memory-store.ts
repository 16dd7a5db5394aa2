// Stateful sessions kept in this process: id → caller (credential and forge URL kept with the
// session, docs/spec.md remote authorization rule 3) and the session's SDK server and transport.
// Expiry is checked on every use; the periodic sweep only frees memory (D9).
// Capacity (D7): expired sessions never count, and when MAX_SESSIONS is reached the least recently
// used session idle for at least a minute is closed to make room. The map is kept in use order
// (a used session moves to the end), so both are found at its front without a scan.
import type { Server, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';

/** A session idle this long may be closed to make room for a new one (D7). */
const IDLE_BEFORE_EVICTION_MS = 60_000;

/** A session's notification streams (GET) open now: a request to the client can go only there (D42). */
export interface StreamState {
  open: number;
}

export interface Session {
  readonly id: string;
  readonly caller: Caller;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Opened with a caller-supplied credential (not the deployment's static token). */
  readonly authenticated: boolean;
  lastSeen: number;
  /** Requests of this session being served: a session at work is never closed to make room. */
  inFlight: number;
  /** JSON-RPC ids of the session's requests being answered (a request may not reuse one). */
  readonly requestIds: Set<string | number>;
  /**
   * Answers for the session's POSTs the SDK's transport is serving, called when the session
   * closes: the transport then drops what it still owes them (mcp-stateful.ts).
   */
  readonly unanswered: Set<(response: Response) => void>;
  /** Its notification streams open now (mcp-stateful.ts counts them). */
  readonly stream: StreamState;
}

export class MemorySessionStore {
  private readonly sessions = new Map<string, Session>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly timeoutMs: number,
    readonly now: () => number = Date.now,
    private readonly onExpired: (session: Session) => void = () => {},
    private readonly onEvicted: (session: Session) => void = () => {},
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** Open sessions acting with a caller-supplied credential. */
  countAuthenticated(): number {
    let n = 0;
    for (const s of this.sessions.values()) if (s.authenticated) n++;
    return n;
  }

  add(session: Session): void {
    this.sessions.delete(session.id);
    this.sessions.set(session.id, session);
  }

  /** The live session with this id, touched; an expired one is closed and forgotten. */
  use(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (this.expired(session, now)) {
      this.expire(session);
      return undefined;
    }
    session.lastSeen = now;
    this.sessions.delete(id); // to the end: the front is the least recently used
    this.sessions.set(id, session);
    return session;
  }

  /**
   * Whether one more session fits under `max` beside `reserved` ones being opened. Expired sessions
   * are dropped first; then least recently used sessions idle for at least a minute, with no request
   * in flight, are closed until it fits.
   */
  makeRoom(max: number, reserved = 0): boolean {
    const fits = () => this.sessions.size + reserved < max;
    if (fits()) return true;
    const now = this.now();
    for (const session of this.sessions.values()) {
      if (fits()) break;
      if (this.expired(session, now)) {
        this.expire(session);
        continue;
      }
      // Use order: every later session was used more recently, so none of them is idle long enough.
      if (now - session.lastSeen < IDLE_BEFORE_EVICTION_MS) break;
      if (session.inFlight > 0) continue;
      this.sessions.delete(session.id);
      this.onEvicted(session);
      void session.server.close().catch(() => {});
    }
    return fits();
  }

  /** Forgets a session without closing it (its transport is closing it already). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes and forgets every session idle for longer than the timeout. */
  sweep(): number {
    const now = this.now();
    let expired = 0;
    for (const session of this.sessions.values()) {
      if (this.expired(session, now)) {
        this.expire(session);
        expired++;
      }
    }
    return expired;
  }

  startSweeping(intervalMs: number): void {
    this.sweeper ??= setInterval(() => this.sweep(), intervalMs);
    this.sweeper.unref?.();
  }

  async closeAll(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.server.close().catch(() => {})));
  }

  private expired(session: Session, now: number): boolean {
    return now - session.lastSeen > this.timeoutMs;
  }

  private expire(session: Session): void {
    this.sessions.delete(session.id);
    this.onExpired(session);
    void session.server.close().catch(() => {});
  }
}
