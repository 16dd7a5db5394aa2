// The log's stderr lines leave once per turn of the event loop, in the order logged
// (src/logging/turn-batch.ts); what waits is written at once on flush, and nothing is written for
// a turn without lines.
import { expect, test } from 'bun:test';
import { turnBatch } from '../src/logging/turn-batch';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

test('the lines of one turn are one write, in order; the next turn is another', async () => {
  const writes: string[] = [];
  const batch = turnBatch((text) => writes.push(text));
  batch('a\n');
  batch('b\n');
  batch('c\n');
  expect(writes).toEqual([]);
  await nextTurn();
  expect(writes).toEqual(['a\nb\nc\n']);
  batch('d\n');
  await nextTurn();
  expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  await nextTurn();
  expect(writes).toHaveLength(2);
});

test('flush writes what waits at once, and the turn then has nothing left to write', async () => {
  const writes: string[] = [];
  const batch = turnBatch((text) => writes.push(text));
  batch('x\n');
  batch('y\n');
  batch.flush();
  expect(writes).toEqual(['x\ny\n']);
  batch.flush();
  await nextTurn();
  expect(writes).toEqual(['x\ny\n']);
  batch('z\n');
  await nextTurn();
  expect(writes).toEqual(['x\ny\n', 'z\n']);
});

test('a warning or an error is written at once, after the info lines waiting: a process killed in the same turn keeps them', async () => {
  const logger = new URL('../src/logging/logger.ts', import.meta.url).pathname;
  const script = `import { createLogger } from ${JSON.stringify(logger)};
const log = createLogger('info');
setTimeout(() => {
  log.info('first');
  log.error('second');
  log.info('third');
  process.kill(process.pid, 'SIGKILL');
}, 1);`;
  const child = Bun.spawn(['bun', '-e', script], { stdout: 'ignore', stderr: 'pipe' });
  const stderr = await new Response(child.stderr).text();
  expect(await child.exited).not.toBe(0);
  const events = stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line).event);
  // 'third' waited for the end of a turn that never came: a killed process runs no exit handler.
  expect(events).toEqual(['first', 'second']);
});
