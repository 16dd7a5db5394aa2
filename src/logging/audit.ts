// The audit trail (D35): one JSON line per tool call, event `tool_call`, on the log at info or
// appended to AUDIT_LOG_PATH. The file is opened once at start-up (a path that cannot be opened
// for appending stops start-up, naming the setting) and every line is written synchronously with
// one append, so a line is on disk before the call's answer leaves, whatever happens next. Callers
// pass only what may be logged (D5): never a token, never a text body (tools/arg-summary.ts).
import { closeSync, openSync, writeSync } from 'node:fs';
import type { Logger } from './logger';

export type AuditSink = (fields: Record<string, unknown>) => void;

export class AuditFileError extends Error {}

/** Opens AUDIT_LOG_PATH for appending (created with mode 0600 when missing); throws naming the setting. */
export function openAuditFile(path: string): number {
  try {
    return openSync(path, 'a', 0o600);
  } catch (error) {
    throw new AuditFileError(`AUDIT_LOG_PATH: cannot open ${path} for appending (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Audit lines appended to an open file; a failed write is reported on the log, never thrown into a call. */
export function fileAuditSink(fd: number, logger: Logger): AuditSink & { close(): void } {
  let failing = false;
  const sink = ((fields: Record<string, unknown>) => {
    try {
      writeSync(fd, `${JSON.stringify({ time: new Date().toISOString(), event: 'tool_call', ...fields })}\n`);
      failing = false;
    } catch (error) {
      // Said once per run of failures, not per line.
      if (!failing) logger.error('audit_write_failed', { error: (error as NodeJS.ErrnoException).code ?? 'error' });
      failing = true;
    }
  }) as AuditSink & { close(): void };
  sink.close = () => {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  };
  return sink;
}

/** Audit lines as the log's own `tool_call` lines at info. */
export function logAuditSink(logger: Logger): AuditSink {
  return (fields) => {
    if (logger.enabled('info')) logger.info('tool_call', fields);
  };
}
