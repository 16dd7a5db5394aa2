// JOB_LOG_MEMORY_BYTES (D30, issue 32): job-log reads reserve what they may hold from one budget
// of the process; a read that does not fit waits its turn, and one that waited too long, or can
// never fit, fails naming the setting.
import { describe, expect, test } from 'bun:test';
import { ToolError } from '../../src/forge/errors';
import { LogBudget } from '../../src/tools/pipelines/log-budget';

/** A read that runs until `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { read: () => done.then(() => 'read'), finish };
}

describe('LogBudget', () => {
  test('reads that fit run together; the next one waits until one ends, in order', async () => {
    const budget = new LogBudget(100, 60_000);
    const a = held();
    const b = held();
    const started: string[] = [];
    const first = budget.run(60, () => (started.push('a'), a.read()));
    const second = budget.run(50, () => (started.push('b'), b.read()));
    const third = budget.run(10, async () => (started.push('c'), 'c'));
    await Bun.sleep(0);
    // b does not fit beside a; c would, but waits behind b (first come, first served).
    expect(started).toEqual(['a']);
    expect(budget.inUse).toBe(60);
    a.finish();
    await first;
    await Bun.sleep(0);
    expect(started).toEqual(['a', 'b', 'c']);
    b.finish();
    expect(await Promise.all([second, third])).toEqual(['read', 'c']);
    expect(budget.inUse).toBe(0);
  });

  test('a read that waited past its time fails with timeout naming JOB_LOG_MEMORY_BYTES, and gives nothing back it did not take', async () => {
    const budget = new LogBudget(100, 20);
    const a = held();
    const first = budget.run(90, a.read);
    const refused = await budget.run(20, async () => 'never').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ToolError);
    expect((refused as ToolError).kind).toBe('timeout');
    expect((refused as ToolError).message).toContain('JOB_LOG_MEMORY_BYTES (100 bytes)');
    expect(budget.inUse).toBe(90);
    a.finish();
    await first;
    expect(budget.inUse).toBe(0);
    expect(await budget.run(100, async () => 'whole budget')).toBe('whole budget');
  });

  test('a read larger than the whole budget fails at once with upstream, and a failed read gives its share back', async () => {
    const budget = new LogBudget(100, 60_000);
    const refused = await budget.run(101, async () => 'never').catch((error: unknown) => error);
    expect((refused as ToolError).kind).toBe('upstream');
    expect((refused as ToolError).message).toContain('JOB_LOG_MEMORY_BYTES (100 bytes)');
    await expect(
      budget.run(50, async () => {
        throw new Error('forge gone');
      }),
    ).rejects.toThrow('forge gone');
    expect(budget.inUse).toBe(0);
  });
});
