// What a cancel's answer means (src/tools/pipelines/cancel-outcome.ts): a record that had already
// finished is a conflict; anything else the forge sent, well-formed or not, is passed on unchanged.
import { describe, expect, test } from 'bun:test';
import { ToolError } from '../../src/forge/errors';
import { canceled } from '../../src/tools/pipelines/cancel-outcome';

describe('canceled()', () => {
  test.each(['success', 'failed', 'skipped'])('a record that had already finished (%s) is a conflict naming it and the status GitLab answered', (status) => {
    const thrown = (() => {
      try {
        canceled({ id: 7, status }, 'job 7', 201);
      } catch (error) {
        return error as ToolError;
      }
    })();
    expect(thrown).toBeInstanceOf(ToolError);
    expect({ kind: thrown!.kind, status: thrown!.status, message: thrown!.message }).toEqual({
      kind: 'conflict',
      status: 201,
      message: `job 7 has already finished (${status}); nothing was canceled`,
    });
  });

  test.each([
    ['canceled', { id: 7, status: 'canceled' }],
    ['canceling', { id: 7, status: 'canceling' }],
    ['an empty answer', null],
    ['no status', { id: 7 }],
    ['a status of another type', { id: 7, status: 3 }],
    ['a status that is an object', { id: 7, status: { text: 'success' } }],
    ['an empty status', { id: 7, status: '' }],
    ['a status in other case', { id: 7, status: 'SUCCESS' }],
  ])('%s is passed on as the forge sent it', (_, record) => {
    expect(canceled(record as { status?: unknown } | null, 'pipeline 9', 200)).toBe(record as never);
  });
});
