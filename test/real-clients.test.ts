// CI's run of real clients (the README's test command covers it): scripts/real-clients.ts as a
// process, exactly as a developer runs it; every conformance scenario on both lanes (docs/decisions.md
// D27), for our server and the SDK v2 reference server, and every Inspector call must pass. The
// scoring that decides a scenario's verdict is tested here too, so a baseline entry that goes stale
// is shown to fail the run.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BASELINE_FILE, parseBaseline, REVISIONS, runNames, SCENARIOS, score, type Check } from '../scripts/real-clients';

const ok = (id: string): Check => ({ id, status: 'SUCCESS' });

describe('conformance scoring', () => {
  test('a scenario whose checks all succeed passes; INFO and SKIPPED carry no verdict', () => {
    const s = score([ok('a'), ok('b'), { id: 'c', status: 'INFO' }, { id: 'd', status: 'SKIPPED' }]);
    expect(s).toEqual({ ok: true, passed: 2, total: 2, skipped: 1, info: 1, excepted: [], problems: [] });
  });

  test('a FAILURE or WARNING not in the baseline fails the scenario', () => {
    expect(score([ok('a'), { id: 'b', status: 'FAILURE', errorMessage: 'bad' }]).problems).toEqual(['b FAILURE: bad']);
    expect(score([ok('a'), { id: 'w', status: 'WARNING' }]).ok).toBe(false);
  });

  test('a baselined check that fails is an exception, not a failure', () => {
    const s = score([ok('a'), { id: 'b', status: 'FAILURE' }, { id: 'b', status: 'WARNING' }], new Set(['b']));
    expect(s.ok).toBe(true);
    expect(s.excepted).toEqual(['b']);
    expect(`${s.passed}/${s.total}`).toBe('1/3');
  });

  test('a baselined check that now passes, or that the suite no longer reports, fails the scenario', () => {
    expect(score([ok('a'), ok('b')], new Set(['b'])).problems).toEqual(['b is baselined but now SUCCESS: remove it from the baseline']);
    expect(score([ok('a'), { id: 'b', status: 'SKIPPED' }], new Set(['b'])).ok).toBe(false);
    expect(score([ok('a')], new Set(['gone'])).problems).toEqual(['gone is baselined but the suite no longer reports it']);
  });

  test('a run with no successful check fails (no results at all, or only exceptions)', () => {
    expect(score([]).ok).toBe(false);
    expect(score([{ id: 'b', status: 'FAILURE' }], new Set(['b'])).problems).toEqual(['no check succeeded']);
  });

  test('the baseline is scenario:check-id entries under server:, each listed once', () => {
    expect(parseBaseline('server:\n  - caching:x-y\n  - caching:z\n')).toEqual(new Map([['caching', new Set(['x-y', 'z'])]]));
    expect(() => parseBaseline('server:\n  - caching\n')).toThrow('is not scenario:check-id');
    expect(() => parseBaseline('server:\n  - caching:z\n  - caching:z\n')).toThrow('listed twice');
    expect(() => parseBaseline('client: []\n')).toThrow('must be a list');
  });

  test('every baselined check is in a scenario that runs and has its reason in docs/real-clients.md', () => {
    const baseline = parseBaseline(readFileSync(BASELINE_FILE, 'utf8'));
    const docs = readFileSync(resolve(import.meta.dir, '../docs/real-clients.md'), 'utf8');
    const run = new Set(REVISIONS.flatMap((rev) => SCENARIOS[rev]));
    const entries = [...baseline].flatMap(([name, ids]) => [...ids].map((id) => `${name}:${id}`));
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      expect(run.has(entry.split(':')[0])).toBe(true);
      expect(docs).toContain(`\`${entry}\``);
    }
  });
});

test('conformance scenarios on both lanes and MCP Inspector CLI calls all pass', async () => {
  const proc = Bun.spawn(['bun', 'run', resolve(import.meta.dir, '../scripts/real-clients.ts')], { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' });
  // The script stops its servers and clients on SIGTERM; this bound keeps a hung run from outliving the test.
  const timer = setTimeout(() => proc.kill('SIGTERM'), 200_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  if (code !== 0) console.error(stdout, stderr);
  expect(code).toBe(0);
  const passed = stdout
    .split('\n')
    .filter((line) => line.startsWith('PASS  '))
    .map((line) => line.split('  ')[1]);
  expect(passed).toEqual(runNames());
  expect(stdout).not.toContain('FAIL');
}, 240_000);
