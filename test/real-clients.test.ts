// CI's run of real clients (the README's test command covers it): scripts/real-clients.ts as a
// process, exactly as a developer runs it; every conformance scenario and Inspector call must pass.
import { expect, test } from 'bun:test';
import { resolve } from 'node:path';
import { SCENARIOS } from '../scripts/real-clients';

test('conformance scenarios and MCP Inspector CLI calls all pass', async () => {
  const proc = Bun.spawn(['bun', 'run', resolve(import.meta.dir, '../scripts/real-clients.ts')], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) console.error(stdout, stderr);
  expect(code).toBe(0);
  const passed = stdout.split('\n').filter((line) => line.startsWith('PASS  ')).map((line) => line.split('  ')[1]);
  expect(passed).toEqual([
    ...SCENARIOS.map((s) => `conformance ${s}`),
    'inspector tools/list',
    'inspector tools/call get_branch',
    'inspector tools/call list_branches',
    'inspector acted with its Private-Token',
  ]);
  expect(stdout).not.toContain('FAIL');
}, 240_000);
