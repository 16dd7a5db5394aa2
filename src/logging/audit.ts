// The audit trail (D35): one JSON line per tool call, event `tool_call`, on the log at info or
// appended to AUDIT_LOG_PATH. The file is opened once at start-up (a path that cannot be opened
// for appending stops start-up, naming the setting) and every line is written before the call's
// answer leaves, so no answered call lacks its line, whatever happens next. Callers
// pass only what may be logged (D5): never a token, never a text body (tools/arg-summary.ts).
import { closeSync, openSync, writeSync } from 'node:fs';
import { jsonLine } from './json-line';
import type { Logger } from './logger';

/** Takes one audit line; a promise, when given, settles once the line is written. */
export type AuditSink = (fields: Record<string, unknown>) => void | Promise<void>;

export class AuditFileError extends Error {}

/** Opens AUDIT_LOG_PATH for appending (created with mode 0600 when missing); throws naming the setting. */
export function openAuditFile(path: string): number {
  try {
    return openSync(path, 'a', 0o600);
  } catch (error) {
    throw new AuditFileError(`AUDIT_LOG_PATH: cannot open ${path} for appending (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/**
 * Audit lines appended to an open file. Lines of calls that end in the same turn of the event loop
 * are written together, with one append, at the end of that turn; each call's promise settles when
 * its line has been written, and the call answers only then. A failed write is reported on the log,
 * never thrown into a call; close() writes what is waiting first.
 */
export function fileAuditSink(fd: number, logger: Logger): AuditSink & { close(): void } {
  let failing = false;
  let waiting: string[] = [];
  let written: Promise<void> | undefined;
  const flush = () => {
    const text = waiting.join('');
    waiting = [];
    written = undefined;
    if (text === '') return;
    try {
      writeSync(fd, text);
      failing = false;
    } catch (error) {
      // Said once per run of failures, not per line.
      if (!failing) logger.error('audit_write_failed', { error: (error as NodeJS.ErrnoException).code ?? 'error' });
      failing = true;
    }
  };
  const sink = ((fields: Record<string, unknown>) => {
    waiting.push(`${jsonLine({ time: new Date().toISOString(), event: 'tool_call', ...fields })}\n`);
    written ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        flush();
        resolve();
      }),
    );
    return written;
  }) as AuditSink & { close(): void };
  sink.close = () => {
    flush();
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  };
  return sink;
}
