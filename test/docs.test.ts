// Generated documentation must match the code (docs/architecture.md principle 10). Run `bun run docs`
// after changing a setting or a tool.
import { describe, expect, test } from 'bun:test';
import { configurationDoc, readme, toolsDoc } from '../scripts/gen-docs';

const read = (path: string) => Bun.file(new URL(`../${path}`, import.meta.url)).text();

describe('generated docs are up to date (run `bun run docs`)', () => {
  test('docs/configuration.md', async () => {
    expect(await read('docs/configuration.md')).toBe(configurationDoc());
  });
  test('docs/tools.md', async () => {
    expect(await read('docs/tools.md')).toBe(toolsDoc());
  });
  test('README.md table of the settings people change first', async () => {
    const current = await read('README.md');
    expect(current).toBe(readme(current));
  });
});
