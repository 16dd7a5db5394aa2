// What a cancel answered. GitLab answers a cancel of a pipeline or job that has already finished
// with the record unchanged (200 for a pipeline, 201 for a job; doc/api/pipelines.md "Cancel all
// jobs for a pipeline", lib/api/ci/jobs.rb), so the tools say so as a `conflict` rather than let an
// agent believe they stopped something.
import { ToolError } from '../errors';

/** Finished statuses other than canceled (GitLab's Ci::HasStatus::COMPLETED_STATUSES): nothing is left to cancel. */
const FINISHED = new Set(['success', 'failed', 'skipped']);

/** The canceled record, or a conflict naming `what` ("job 7") when it had already finished. */
export function canceled<T extends { status?: unknown } | null>(record: T, what: string, httpStatus: number): T {
  if (record && typeof record.status === 'string' && FINISHED.has(record.status)) {
    throw new ToolError('conflict', `${what} has already finished (${record.status}); nothing was canceled`, httpStatus);
  }
  return record;
}
