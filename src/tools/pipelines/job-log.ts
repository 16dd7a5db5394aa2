// get_pipeline_job_output: a job's log, the last lines by default (where a failure shows), or a
// line range. The log is streamed (src/forge/client.ts `stream`) and only the asked-for lines are
// kept (log-lines.ts), so a log of any size is read with bounded memory and is never refused for
// passing FORGE_MAX_RESPONSE_BYTES (D30 bounds what is held, not what passes). Lines are cleaned of
// section markers, ANSI codes and invisible characters (log-text.ts, D36) unless full_response asks
// for them as GitLab sent them.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { invalidArgument } from '../errors';
import { projectId, lineNumber } from '../params';
import { STREAM_ALLOWANCE } from './log-budget';
import { freshPages, PAGE_BYTES, PAGE_LINES, readLogLinesWith, type LogWindow, type RawLine } from './log-lines';
import { lineText } from './log-text';
import { jobId } from './params';
import { B, fields, I, orNull, S } from '../lean/schema-parts';

const LOG_LIMITS = {
  /** Lines returned by default. */
  lines: 200,
  /** Lines returned at most. */
  maxLines: 1_000,
  /** Lines skipped from the end at most: the ring holds maxLines + maxOffset lines of at most LINE_BYTES. */
  maxOffset: 5_000,
  /** Bytes of log text (as JSON) in one result, kept below MAX_RESULT_BYTES's default (D33). */
  bytes: 60_000,
} as const;

export interface JobLog {
  job_id: number;
  /** Line numbers (1-based) of the first and last lines in `log`; 0 when it is empty. */
  first_line: number;
  last_line: number;
  /** Lines in the whole log; null when a range read stopped before the end. */
  total_lines: number | null;
  log: string;
  /** Lines were dropped to fit the result (D33's convention); `truncation` says how to get them. */
  truncated?: true;
  truncation?: string;
  note?: string;
}

/** What one read may hold: its line slots (a tail's ring has one more, log-lines.ts) and its stream's buffers. */
const logReadBytes = (window: LogWindow) => pagesOf(window.mode === 'tail' ? window.limit + window.offset + 1 : window.limit) * PAGE_BYTES + STREAM_ALLOWANCE;
const pagesOf = (lines: number) => Math.ceil(lines / PAGE_LINES);

/** A line's size in the result: UTF-8 bytes once JSON-escaped, its quotes standing for its escaped newline. */
const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));

/**
 * The lines that fit LOG_LIMITS.bytes, as text: a tail drops its oldest lines, a range its last.
 * Lines are at most LINE_BYTES long, so the first one always fits; lines past the fit are never
 * decoded (a window of 1,000 lines would otherwise make a megabyte of text for 60 kB of result).
 */
function fit(lines: RawLine[], keepEnd: boolean, text: (line: RawLine) => string): { texts: string[]; dropped: number } {
  let size = 0;
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = text(lines[keepEnd ? lines.length - 1 - i : i]);
    const bytes = jsonBytes(line);
    if (size + bytes > LOG_LIMITS.bytes) break;
    kept.push(line);
    size += bytes;
  }
  if (keepEnd) kept.reverse();
  return { texts: kept, dropped: lines.length - kept.length };
}

export const getPipelineJobOutput = defineTool({
  name: 'get_pipeline_job_output',
  title: 'Get job log',
  description: "Read a job's log without colour codes or section markers: its last lines, or lines from start_line. Gives line numbers and total_lines.",
  group: 'pipelines',
  mode: 'read',
  // Lines of text, not a record: full_response returns them as GitLab sent them (codes and markers kept).
  text: true,
  endpoint: 'GET /projects/{project_id}/jobs/{job_id}/trace',
  output: fields({ job_id: I, first_line: I, last_line: I, total_lines: orNull('integer'), log: S, truncated: B, truncation: S, note: S }),
  input: Type.Object(
    {
      project_id: projectId(),
      job_id: jobId(),
      limit: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: LOG_LIMITS.maxLines,
          hint: `must be an integer from 1 to ${LOG_LIMITS.maxLines}`,
          description: 'Lines; default 200',
        }),
      ),
      offset: Type.Optional(
        Type.Integer({
          minimum: 0,
          maximum: LOG_LIMITS.maxOffset,
          hint: `must be an integer from 0 to ${LOG_LIMITS.maxOffset}; use start_line to read further back`,
          description: 'Lines skipped from the end',
        }),
      ),
      start_line: lineNumber('Read from here, not the end'),
    },
    { additionalProperties: false },
  ),
  check(args) {
    if (args.offset !== undefined && args.start_line !== undefined) throw invalidArgument('offset', 'counts from the end; give offset or start_line, not both');
  },
  async handler(args, { forge, fullResponse, logBudget }): Promise<JobLog> {
    const limit = args.limit ?? LOG_LIMITS.lines;
    const window: LogWindow =
      args.start_line === undefined ? { mode: 'tail', limit, offset: args.offset ?? 0 } : { mode: 'range', start: args.start_line, limit };
    const path = fillPath('/projects/{project_id}/jobs/{job_id}/trace', args);
    // The lines become text before their pages go back to the budget (log-lines.ts).
    const stream = () =>
      forge.stream({ method: 'GET', path }, (reader) =>
        readLogLinesWith(reader, window, logBudget?.pages ?? freshPages, (lines) => ({
          first_line: lines.first_line,
          total_lines: lines.total_lines,
          ...fit(lines.lines, window.mode === 'tail', (line) => lineText(line, fullResponse)),
        })),
      );
    const read = logBudget ? await logBudget.run(logReadBytes(window), stream) : await stream();
    const { texts, dropped } = read;
    const first = read.first_line === 0 ? 0 : window.mode === 'tail' ? read.first_line + dropped : read.first_line;
    const result: JobLog = {
      job_id: Number(args.job_id),
      first_line: texts.length ? first : 0,
      last_line: texts.length ? first + texts.length - 1 : 0,
      total_lines: read.total_lines,
      log: texts.join('\n'),
    };
    if (dropped > 0) {
      result.truncated = true;
      result.truncation =
        window.mode === 'tail'
          ? `${dropped} older lines did not fit; read them with start_line ${read.first_line} and limit ${dropped}`
          : `${dropped} more lines did not fit; continue with start_line ${first + texts.length}`;
    }
    if (read.total_lines === 0) result.note = 'the job has no log (not started yet, or erased)';
    else if (read.total_lines !== null && window.mode === 'range' && read.first_line === 0) result.note = `the log has only ${read.total_lines} lines`;
    return result;
  },
});
