// completion/complete's parts (D44) without a server: the 100-value bound and the ranking of
// completeArgument, over a forge that answers more than a page could hold, and the memory of
// answers (expiry, bound, keys by credential).
import { describe, expect, test } from 'bun:test';
import type { ForgeClient } from '../src/forge/client';
import { ToolError } from '../src/forge/errors';
import { CompletionCache } from '../src/resources/completion-cache';
import { completeArgument, MAX_COMPLETION_VALUES } from '../src/resources/completions';

/** A forge client whose lists answer `items` (and say there is a next page), recording each request. */
function forgeAnswering(items: unknown[], nextPage: number | null = 2) {
  const asked: { path: string; query: Record<string, unknown> }[] = [];
  const forge = {
    async list(request: { path: string; query: Record<string, unknown> }) {
      asked.push(request);
      return { items, pagination: { page: 1, per_page: items.length, next_page: nextPage, total: null, total_pages: null } };
    },
  } as unknown as ForgeClient;
  return { forge, asked };
}

describe('completeArgument', () => {
  test('never more than 100 values, and says there are more', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ path_with_namespace: `acme/project-${i}` }));
    const { forge } = forgeAnswering(many);
    const answer = await completeArgument(forge, 'project_id', 'acme', {});
    expect(answer?.values).toHaveLength(MAX_COMPLETION_VALUES);
    expect(answer?.hasMore).toBe(true);
    const files = forgeAnswering(Array.from({ length: 150 }, (_, i) => ({ name: `f${i}`, path: `f${i}`, type: 'blob' })));
    expect((await completeArgument(files.forge, 'file_path', 'f', { project_id: '42' }))?.values).toHaveLength(MAX_COMPLETION_VALUES);
  });

  test('values that start with what was typed come first; values without it are dropped', async () => {
    const { forge } = forgeAnswering([{ name: 'fix/main-loop' }, { name: 'main' }, { name: 'develop' }], null);
    const answer = await completeArgument(forge, 'ref', 'main', { project_id: '42' });
    // Branches and tags are both asked (the same fake answers both): each name once.
    expect(answer).toEqual({ values: ['main', 'fix/main-loop'], hasMore: false });
  });

  test('a short typed project is not searched (GitLab matches part of a name from 3 characters); a path searches its longest part', async () => {
    const { forge, asked } = forgeAnswering([], null);
    await completeArgument(forge, 'project_id', 'ac', {});
    await completeArgument(forge, 'project_id', 'acme/pl', {});
    expect(asked.map((r) => [r.query.search, r.query.search_namespaces, r.query.membership])).toEqual([
      [undefined, undefined, true],
      ['acme', true, true],
    ]);
  });

  test('a forge that cannot answer gives no answer (not remembered); a bug stays a bug', async () => {
    const failing = {
      list: async () => {
        throw new ToolError('not_found', 'Project Not Found', 404);
      },
    } as unknown as ForgeClient;
    expect(await completeArgument(failing, 'ref', 'm', { project_id: '42' })).toBeUndefined();
    const broken = {
      list: async () => {
        throw new TypeError('bug');
      },
    } as unknown as ForgeClient;
    await expect(completeArgument(broken, 'project_id', 'acme', {})).rejects.toThrow('bug');
  });

  test('a typed value over the bound is not sent', async () => {
    const { forge, asked } = forgeAnswering([], null);
    expect(await completeArgument(forge, 'project_id', 'a'.repeat(5000), {})).toEqual({ values: [], hasMore: false });
    expect(asked).toEqual([]);
  });
});

describe('CompletionCache', () => {
  test('an answer is kept for its few seconds, then asked again', () => {
    let now = 1_000;
    const cache = new CompletionCache(() => now, 5_000);
    const key = CompletionCache.key('cred:a', ['project_id', 'acme']);
    cache.set(key, { values: ['acme/api'], hasMore: false });
    now += 4_999;
    expect(cache.get(key)?.values).toEqual(['acme/api']);
    now += 1;
    expect(cache.get(key)).toBeUndefined();
  });

  test('keys differ by credential, and by every part of the question', () => {
    const cache = new CompletionCache(() => 0);
    cache.set(CompletionCache.key('cred:a', ['ref', 'm', '42']), { values: ['main'], hasMore: false });
    expect(cache.get(CompletionCache.key('cred:b', ['ref', 'm', '42']))).toBeUndefined();
    expect(cache.get(CompletionCache.key('cred:a', ['ref', 'm', '43']))).toBeUndefined();
    // Parts cannot run into each other: ("ab", "c") is not ("a", "bc").
    expect(CompletionCache.key('k', ['ab', 'c'])).not.toBe(CompletionCache.key('k', ['a', 'bc']));
  });

  test('bounded: the oldest answer is forgotten first', () => {
    const cache = new CompletionCache(() => 0, 5_000, 3);
    for (const i of [1, 2, 3, 4]) cache.set(`k${i}`, { values: [String(i)], hasMore: false });
    expect(cache.size).toBe(3);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k4')?.values).toEqual(['4']);
  });
});
