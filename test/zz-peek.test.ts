import { test } from 'bun:test';
import { ALL_TOOLS } from '../src/tools/catalog';
import { useHarness } from './support/harness';
import { successCase } from './support/tool-call-cases';
const h = useHarness({ FORGE_TOOLSETS: 'all,variables' });
function shape(v: unknown, d = 0): string {
  if (Array.isArray(v)) return `[${v.length ? shape(v[0], d + 1) : ''}]`;
  if (v && typeof v === 'object')
    return d > 1
      ? '{…}'
      : `{${Object.entries(v)
          .map(([k, x]) => `${k}:${shape(x, d + 1)}`)
          .join(',')}}`;
  return v === null ? 'null' : typeof v;
}
test('peek', async () => {
  const c = await h.as();
  for (const tool of ALL_TOOLS.filter((t) => !t.record)) {
    h.forge.reset();
    h.forge.model.edition = 'ee-premium';
    const p = successCase(tool.name, h.forge.model);
    for (const [n, a] of p.before) await c.call(n, a);
    const r = await c.call(tool.name, p.args);
    console.log(`${tool.name}${tool.text ? ' (text)' : ''}: ${shape(r.structuredContent).slice(0, 700)}`);
  }
});
