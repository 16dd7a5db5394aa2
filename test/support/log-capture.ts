// A logger that keeps every line, so tests can read what the server logged.
import { createLogger, type Logger } from '../../src/logging/logger';

export function capturingLogger(): { logger: Logger; lines: string[]; entries: () => Record<string, unknown>[] } {
  const lines: string[] = [];
  const logger = createLogger('debug', (line) => lines.push(line));
  return { logger, lines, entries: () => lines.map((l) => JSON.parse(l)) };
}
