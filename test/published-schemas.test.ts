// D32: the published input schemas are ones every client accepts. No `format` keyword anywhere (some
// model APIs refuse a whole tool list over one), and every id published as ["string","integer"] and
// accepted as either, so a client that sends `issue_iid: 7` and one that sends "7" both get through.
import { describe, expect, test } from 'bun:test';
import type { TSchema } from '@sinclair/typebox';
import { ALL_TOOLS, toolListing } from '../src/tools/catalog';
import { compileValidator } from '../src/tools/validate';
import { baselineArguments } from './tools/arguments';

/** Parameter names that hold an id: `id`, `iids`, `…_id`, `…_iid`, `…_ids`; a thread's hex id and a commit SHA are text, not id numbers. */
const ID_NAME = /^(id|iids|.*_(id|iid|ids))$/;
const TEXT_IDS = new Set(['discussion_id', 'in_reply_to_discussion_id', 'last_commit_id']);
const isIdName = (name: string) => ID_NAME.test(name) && !TEXT_IDS.has(name);

/** Every place in a schema where a key is `format` with a keyword's value, as a JSON path. */
function formatKeywords(node: unknown, path: string, found: string[]): string[] {
  if (Array.isArray(node)) node.forEach((item, i) => formatKeywords(item, `${path}[${i}]`, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'format' && typeof value === 'string') found.push(path);
      formatKeywords(value, `${path}.${key}`, found);
    }
  }
  return found;
}

const listings = ALL_TOOLS.map(toolListing);

describe('published schemas (D32)', () => {
  test('no schema carries a format keyword', () => {
    const found = listings.flatMap((tool) => formatKeywords(tool.inputSchema, tool.name, []));
    expect(found).toEqual([]);
  });

  test('every id-like parameter is published as ["string","integer"] (a list of ids: its items)', () => {
    const wrong: string[] = [];
    let ids = 0;
    for (const tool of listings) {
      for (const [name, schema] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { type?: unknown; items?: { type?: unknown } }>)) {
        if (!isIdName(name)) continue;
        ids++;
        const type = schema.type === 'array' ? schema.items?.type : schema.type;
        if (JSON.stringify(type) !== '["string","integer"]') wrong.push(`${tool.name}.${name}: ${JSON.stringify(type)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(ids).toBeGreaterThan(50);
  });

  test('and the server accepts every one of them as a number and as a digit string', () => {
    const refused: string[] = [];
    for (const tool of ALL_TOOLS) {
      const validator = compileValidator(tool.input);
      const base = baselineArguments(tool);
      for (const [name, schema] of Object.entries(tool.input.properties as Record<string, TSchema>)) {
        if (!isIdName(name)) continue;
        for (const value of [7, '7']) {
          const args = { ...base, [name]: schema.type === 'array' ? [value] : value };
          try {
            validator.validate(args);
          } catch (error) {
            refused.push(`${tool.name}.${name}=${JSON.stringify(value)}: ${(error as Error).message}`);
          }
        }
      }
    }
    expect(refused).toEqual([]);
  });
});
