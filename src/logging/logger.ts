// JSON lines on stderr (stdout belongs to the stdio transport), D5. Callers pass only
// what may be logged: never a token, secret, sealed value or Authorization header. Session ids
// appear as a short hash (see sessionTag), never as themselves.
import { createHash } from 'node:crypto';
import { jsonLine } from './json-line';
import { turnBatch, type TurnBatch } from './turn-batch';

type LogLevel = 'debug' | 'info' | 'warn' | 'error';
const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(event: string, fields?: Record<string, unknown>): void;
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  enabled(level: LogLevel): boolean;
}

/** Takes one line; a sink that gathers lines (turn-batch.ts) has `flush` to write them now. */
type LogSink = ((line: string) => void) & { flush?(): void };

/**
 * The process's stderr, a turn's lines written at once (turn-batch.ts); whatever waits is written
 * when the process exits, so a refusal or a shutdown's last lines are not lost.
 */
export const stderrLines: TurnBatch = turnBatch((text) => process.stderr.write(text));
process.on('exit', stderrLines.flush);

export function createLogger(minLevel: LogLevel, sink: LogSink = stderrLines): Logger {
  const min = RANK[minLevel];
  const write = (level: LogLevel) => (event: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < min) return;
    sink(`${jsonLine({ level, time: new Date().toISOString(), event, ...fields })}\n`);
    // A warning or an error leaves at once, with what waits before it: a process killed in the
    // same turn (no exit handler runs then) keeps it. They are rare; the audit lines are info.
    if (RANK[level] >= RANK.warn) sink.flush?.();
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    enabled: (level) => RANK[level] >= min,
  };
}

/** A logger that drops everything (tests, benchmarks). */
export const silentLogger: Logger = createLogger('error', () => {});

/** Stable short tag for a session id, so log lines of one session can be grouped. */
export function sessionTag(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('base64url').slice(0, 10);
}
