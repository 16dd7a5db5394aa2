// Stateful sessions kept in this process: id → caller (credential and forge URL kept with the
// session, SPEC remote authorization rule 3) and the session's SDK server and transport.
// Expiry is checked on every use; the periodic sweep only frees memory (DECISIONS D9).
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Caller } from '../mcp/caller';

export interface Session {
  readonly id: string;
  readonly caller: Caller;
  readonly server: Server;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  /** Opened with a caller-supplied credential (not the deployment's static token). */
  readonly authenticated: boolean;
  lastSeen: number;
}

export class MemorySessionStore {
  private readonly sessions = new Map<string, Session>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly timeoutMs: number,
    readonly now: () => number = Date.now,
    private readonly onExpired: (session: Session) => void = () => {},
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
    this.sessions.set(session.id, session);
  }

  /** The live session with this id, touched; an expired one is closed and forgotten. */
  use(id: string): Session | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const now = this.now();
    if (now - session.lastSeen > this.timeoutMs) {
      this.expire(session);
      return undefined;
    }
    session.lastSeen = now;
    return session;
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
      if (now - session.lastSeen > this.timeoutMs) {
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

  private expire(session: Session): void {
    this.sessions.delete(session.id);
    this.onExpired(session);
    void session.server.close().catch(() => {});
  }
}
