// D41: every tool's published outputSchema holds for what it returns. Every tool is called with
// arguments that succeed (test/support/tool-call-cases.ts) against the fake forge on each edition
// it plays, and with full_response where the tool takes it; each structuredContent is checked with
// a standard JSON Schema validator (Ajv) against the schema as clients see it (tools/list), and
// against the server's own, closed one (every field of a lean record named in its kind's schema).
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import Ajv, { type ValidateFunction } from 'ajv';
import { ALL_TOOLS, toolListing } from '../src/tools/catalog';
import { hasFullResponse } from '../src/tools/define';
import { onLeftOut } from '../src/tools/lean/conform';
import { outputSchemaOf } from '../src/tools/output-schema';
import { EDITIONS, type Edition } from './support/fake-forge';
import { useHarness } from './support/harness';
import { PAID_ONLY, successCase, VARIANT_CASES } from './support/tool-call-cases';

const h = useHarness({ FORGE_TOOLSETS: 'all,variables' });
const ajv = new Ajv({ strict: false, allErrors: true });
const published = new Map<string, ValidateFunction>();
const closed = new Map<string, ValidateFunction>();
for (const tool of ALL_TOOLS) {
  published.set(tool.name, ajv.compile(toolListing(tool).outputSchema as object));
  closed.set(tool.name, ajv.compile(JSON.parse(JSON.stringify(outputSchemaOf(tool)))));
}

function problems(name: string, value: unknown): string[] {
  const found: string[] = [];
  for (const [which, validate] of [
    ['published', published.get(name)!],
    ['closed', closed.get(name)!],
  ] as const) {
    if (!validate(value)) found.push(`${name} (${which}): ${ajv.errorsText(validate.errors)}`);
  }
  return found;
}

// The fake forge sends GitLab's JSON types, so a lean record never has to leave a value out to fit
// its schema (lean/conform.ts): a field left out here is a schema that says another type than GitLab.
const leftOut: string[] = [];
beforeAll(() => onLeftOut((kind, field) => leftOut.push(`${kind}.${field}`)));
afterAll(() => onLeftOut(undefined));
beforeEach(() => {
  leftOut.length = 0;
});
afterEach(() => {
  expect([...new Set(leftOut)]).toEqual([]);
});

describe.each(EDITIONS)('every tool on %s', (edition: Edition) => {
  test('succeeds and its structuredContent satisfies its published outputSchema', async () => {
    const client = await h.as();
    const failures: string[] = [];
    for (const tool of ALL_TOOLS) {
      for (const full of hasFullResponse(tool) ? [false, true] : [false]) {
        h.forge.reset();
        h.forge.model.edition = edition;
        h.app.instances.clear();
        const prepared = successCase(tool.name, h.forge.model);
        for (const [name, args] of prepared.before) await client.call(name, args);
        const result = await client.call(tool.name, { ...prepared.args, ...(full && { full_response: true }) });
        // A paid feature on a forge without it fails, saying so: nothing to check.
        if (result.isError && PAID_ONLY.has(tool.name) && (edition === 'ce' || edition === 'ee-free')) continue;
        if (result.isError) {
          failures.push(`${tool.name}${full ? ' full' : ''}: ${JSON.stringify(result.content)}`);
          continue;
        }
        failures.push(...problems(tool.name, result.structuredContent).map((p) => (full ? `${p} [full]` : p)));
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});

describe('the other shapes of some results', () => {
  test.each(VARIANT_CASES)('%s (%s) satisfies its published outputSchema', async (_label, name, variant) => {
    const client = await h.as();
    const prepared = successCase(name, h.forge.model, variant);
    for (const [before, args] of prepared.before) expect((await client.call(before, args)).isError).toBeFalsy();
    const result = await client.call(name, prepared.args);
    expect(result.isError ? JSON.stringify(result.content) : []).toEqual([]);
    expect(problems(name, result.structuredContent)).toEqual([]);
  });
});
