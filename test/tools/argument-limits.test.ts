// Argument limits (D31) over every tool, derived from the schemas: numeric ids and
// integers are whole numbers in range, converted only when nothing is lost; free text and lists
// have bounds (title 255, description and bodies 1,000,000, search 1,000). A refused value is a
// `validation` error naming the parameter, and nothing is sent to the forge.
import { describe, expect, test } from 'bun:test';
import type { TSchema } from '@sinclair/typebox';
import { ALL_TOOLS } from '../../src/tools/catalog';
import { ISSUE_SEED, SEED } from '../support/fake-forge';
import { useHarness } from '../support/harness';
import { structured, toolError, type Connected } from '../support/mcp-client';
import { baselineArguments, sample } from './arguments';

// Every tool: variables is never part of `all` (D13), so it is named too.
const h = useHarness({ FORGE_TOOLSETS: 'all,variables' });
const P = String(SEED.project);

type Property = { tool: (typeof ALL_TOOLS)[number]; name: string; schema: TSchema };
const properties: Property[] = ALL_TOOLS.flatMap((tool) =>
  Object.entries(tool.input.properties as Record<string, TSchema>).map(([name, schema]) => ({ tool, name, schema })),
);
const POSITIVE_ID = '^[1-9][0-9]*$';
const isPositiveWholeNumber = ({ schema }: Property) => (schema.type === 'integer' && schema.minimum === 1) || schema.pattern === POSITIVE_ID;
const byTool = (selected: Property[]) =>
  ALL_TOOLS.map((tool) => [tool.name, selected.filter((p) => p.tool === tool)] as const).filter(([, ps]) => ps.length > 0);

/** Calls the tool with its baseline arguments and one parameter replaced; expects a validation error naming it and no upstream request. */
async function expectRefused(client: Connected, tool: Property['tool'], name: string, value: unknown) {
  const before = h.forge.requests.length;
  const result = await client.call(tool.name, { ...baselineArguments(tool), [name]: value });
  const label = `${tool.name} ${name}=${JSON.stringify(value)?.slice(0, 40)}`;
  const error = result.isError ? toolError(result) : { kind: 'none', message: JSON.stringify(result.structuredContent).slice(0, 80) };
  expect([label, error.kind, error.message.startsWith(`${name}: `), h.forge.requests.length - before]).toEqual([label, 'validation', true, 0]);
  return error.message;
}

describe('positive whole numbers: ids, iids, pages, line numbers (D31)', () => {
  const NOT_POSITIVE_WHOLE = [
    0,
    -1,
    1.5,
    50.5,
    1e308,
    2 ** 53,
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    ' 1',
    '1 ',
    '',
    '12345678901234567890',
    '١٢',
    true,
    null,
    {},
    [],
  ];

  test.each(byTool(properties.filter(isPositiveWholeNumber)))('%s', async (_, selected) => {
    const client = await h.as();
    for (const { tool, name } of selected) for (const value of NOT_POSITIVE_WHOLE) await expectRefused(client, tool, name, value);
  });

  test('mark_todo_done {"id": 1e308} is refused, not sent as /todos/1e%2B308', async () => {
    const message = await expectRefused(await h.as(), ALL_TOOLS.find((t) => t.name === 'mark_todo_done')!, 'id', 1e308);
    expect(message).toBe('id: must be a positive integer to-do id such as 42');
  });

  test('per_page 50.5 is refused, not truncated to 50', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_branches', { project_id: P, per_page: 50.5 }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'per_page: must be an integer from 1 to 100',
    });
    expect(toolError(await c.call('list_branches', { project_id: P, page: 1e308 })).message).toBe('page: must be an integer, 1 or more');
    expect(h.upstream()).toEqual([]);
  });

  test('lossless conversions still happen: digit strings to integers, integers to string ids, "true" to true', async () => {
    const c = await h.as();
    structured(await c.call('list_branches', { project_id: SEED.project, per_page: '5', page: '2' }));
    expect(Object.fromEntries(h.forge.requests[0].query)).toEqual({ per_page: '5', page: '2' });
    const issue = structured<{ iid: number }>(await c.call('get_issue', { project_id: SEED.project, issue_iid: 1, full_response: 'true' }));
    expect(issue.iid).toBe(1);
    const done = structured<{ id: number }>(await c.call('mark_todo_done', { id: String(ISSUE_SEED.todos.mariaAssigned) }));
    expect(done.id).toBe(ISSUE_SEED.todos.mariaAssigned);
    expect(h.upstream().slice(1)).toEqual([`GET /api/v4/projects/${P}/issues/1`, `POST /api/v4/todos/${ISSUE_SEED.todos.mariaAssigned}/mark_as_done`]);
  });

  test('conversions that would lose something are refused: booleans from other text, enums from fractions', async () => {
    const c = await h.as();
    expect(toolError(await c.call('get_issue', { project_id: P, issue_iid: '1', full_response: 'yes' })).message).toStartWith('full_response: ');
    expect(toolError(await c.call('get_issue', { project_id: P, issue_iid: '1', full_response: 1 })).message).toStartWith('full_response: ');
    expect(toolError(await c.call('protect_branch', { project_id: P, branch_name: 'x', push_access_level: 40.5 })).message).toStartWith('push_access_level: ');
    expect(toolError(await c.call('create_commit_status', { project_id: P, sha: 'main', state: 'success', coverage: '1e2' })).message).toStartWith(
      'coverage: ',
    );
    expect(h.upstream()).toEqual([]);
  });
});

describe('text that cannot be sent: a lone UTF-16 surrogate (D31)', () => {
  // JSON can carry "\ud800" although no UTF-8 can: encodeURIComponent throws on it (a path or query
  // value), and a body would carry an escape GitLab cannot read. A validation error naming the
  // parameter, never a JSON-RPC internal error, and nothing sent.
  const STRINGS = properties.filter((p) => p.schema.type === 'string');
  test.each(byTool(STRINGS))('%s: every string parameter', async (_, selected) => {
    const client = await h.as();
    for (const { tool, name } of selected) await expectRefused(client, tool, name, 'a\ud800b');
  });

  test('in a path, a query, a list item and a body: named, nothing sent', async () => {
    const c = await h.as();
    const problem = 'must be well-formed Unicode text (a lone UTF-16 surrogate cannot be sent)';
    expect(toolError(await c.call('get_branch', { project_id: P, branch_name: 'ma\ud800in' })).message).toBe(`branch_name: ${problem}`);
    expect(toolError(await c.call('get_branch', { project_id: 'acme/\udfffapi', branch_name: 'main' })).message).toBe(`project_id: ${problem}`);
    expect(toolError(await c.call('list_branches', { project_id: P, search: 'x\udc00' })).message).toBe(`search: ${problem}`);
    expect(toolError(await c.call('list_issues', { project_id: P, labels: ['bug', 'a\ud83d'] })).message).toBe(`labels.1: ${problem}`);
    expect(toolError(await c.call('create_issue', { project_id: P, title: 't\udc00' })).message).toBe(`title: ${problem}`);
    expect(toolError(await c.call('create_pipeline', { project_id: P, ref: 'main', variables: [{ key: 'K', value: 'v\ud800' }] })).kind).toBe('validation');
    // A surrogate pair is one character, and goes through.
    expect(structured<{ title: string }>(await c.call('create_issue', { project_id: P, title: 'ok \ud83d\ude00' })).title).toBe('ok \ud83d\ude00');
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${P}/issues`]);
  });
});

describe('bounded text and lists (D31)', () => {
  test('every string, integer, list and map parameter of every tool has a bound, down to the items and entries', () => {
    const unbounded: string[] = [];
    const visit = (where: string, schema: TSchema) => {
      if (Array.isArray(schema.anyOf)) return schema.anyOf.forEach((s: TSchema, i: number) => visit(`${where}|${i}`, s));
      if ('const' in schema) return;
      if (schema.type === 'string' && typeof schema.maxLength !== 'number') unbounded.push(where);
      if ((schema.type === 'integer' || schema.type === 'number') && typeof schema.maximum !== 'number') unbounded.push(where);
      if (schema.type === 'array') {
        if (typeof schema.maxItems !== 'number') unbounded.push(where);
        visit(`${where}[]`, schema.items as TSchema);
      }
      if (schema.type === 'object') {
        for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>)) visit(`${where}.${name}`, property);
        // Names matched by pattern escape the name check of maps (params.ts mapOf).
        if (schema.patternProperties) unbounded.push(`${where} (patternProperties)`);
        if (typeof schema.additionalProperties === 'object') {
          if (typeof schema.maxProperties !== 'number') unbounded.push(where);
          visit(`${where}{name}`, (schema.propertyNames ?? { type: 'string' }) as TSchema);
          visit(`${where}{}`, schema.additionalProperties as TSchema);
        }
      }
    };
    for (const { tool, name, schema } of properties) visit(`${tool.name}.${name}`, schema);
    expect(unbounded).toEqual([]);
  });

  test("GitLab's own limits: title 255, description and comment bodies 1,000,000, search 1,000", () => {
    const limits = (name: string) => [...new Set(properties.filter((p) => p.name === name).map((p) => p.schema.maxLength))];
    expect(limits('title')).toEqual([255]);
    expect(limits('search')).toEqual([1000]);
    expect(limits('body')).toEqual([1_000_000]);
    // A commit status's description is a one-line summary GitLab keeps 255 characters of; a CI/CD
    // variable's description is a column of 255 too.
    const shortDescription = (p: { tool: { name: string; group: string } }) => p.tool.name === 'create_commit_status' || p.tool.group === 'variables';
    expect(properties.filter((p) => p.name === 'description' && !shortDescription(p)).map((p) => p.schema.maxLength)).toEqual(
      properties.filter((p) => p.name === 'description' && !shortDescription(p)).map(() => 1_000_000),
    );
    expect([...new Set(properties.filter((p) => p.name === 'description' && shortDescription(p)).map((p) => p.schema.maxLength))]).toEqual([255]);
  });

  const STRINGS = properties.filter((p) => p.schema.type === 'string' && typeof p.schema.maxLength === 'number');
  test.each(byTool(STRINGS))('%s: one character over the limit is refused', async (_, selected) => {
    const client = await h.as();
    for (const { tool, name, schema } of selected) {
      const message = await expectRefused(client, tool, name, 'a'.repeat((schema.maxLength as number) + 1));
      if (!schema.hint) expect(message).toBe(`${name}: must be at most ${schema.maxLength} characters (got ${(schema.maxLength as number) + 1})`);
    }
  });

  const LISTS = properties.filter((p) => p.schema.type === 'array');
  test.each(byTool(LISTS))('%s: one item over the limit is refused', async (_, selected) => {
    const client = await h.as();
    for (const { tool, name, schema } of selected) {
      const item = (baselineArguments(tool)[name] as unknown[] | undefined)?.[0] ?? (schema.items.type === 'string' ? 'x' : 1);
      const message = await expectRefused(
        client,
        tool,
        name,
        Array.from({ length: (schema.maxItems as number) + 1 }, () => item),
      );
      expect(message).toBe(`${name}: must have at most ${schema.maxItems} items (got ${(schema.maxItems as number) + 1})`);
    }
  });

  const MAPS = properties.filter((p) => p.schema.type === 'object' && typeof p.schema.additionalProperties === 'object');
  test.each(byTool(MAPS))('%s: one entry over the limit, or a name one character too long, is refused', async (_, selected) => {
    const client = await h.as();
    for (const { tool, name, schema } of selected) {
      const value = sample(schema.additionalProperties as TSchema);
      const [entries, nameLength] = [schema.maxProperties as number, (schema.propertyNames as TSchema).maxLength as number];
      const tooMany = Object.fromEntries(Array.from({ length: entries + 1 }, (_, i) => [`k${i}`, value]));
      expect(await expectRefused(client, tool, name, tooMany)).toBe(`${name}: must have at most ${entries} entries (got ${entries + 1})`);
      const tooLong = { ['k'.repeat(nameLength + 1)]: value };
      expect(await expectRefused(client, tool, name, tooLong)).toBe(
        `${name}: name "${'k'.repeat(40)}…" must be at most ${nameLength} characters (got ${nameLength + 1})`,
      );
    }
  });

  test('a 3 MiB search never becomes a 3 MiB URL; 1,000 characters still go through', async () => {
    const c = await h.as();
    expect(toolError(await c.call('list_issues', { search: 's'.repeat(3 * 1024 * 1024) })).message).toBe(
      'search: must be at most 1000 characters (got 3145728)',
    );
    expect(h.upstream()).toEqual([]);
    structured(await c.call('list_branches', { project_id: P, search: 'm'.repeat(1000) }));
    expect(h.forge.requests[0].query.get('search')).toHaveLength(1000);
  });

  test('a title of exactly 255 characters is sent; 256 is refused', async () => {
    const c = await h.as();
    const title = 't'.repeat(255);
    expect(structured<{ title: string }>(await c.call('create_issue', { project_id: P, title })).title).toBe(title);
    expect(toolError(await c.call('create_issue', { project_id: P, title: `${title}t` })).message).toBe('title: must be at most 255 characters (got 256)');
    expect(h.upstream()).toEqual([`POST /api/v4/projects/${P}/issues`]);
  });

  test("a length limit is named as one, not as the value's pattern", async () => {
    const c = await h.as();
    const long = 'l'.repeat(256);
    expect(toolError(await c.call('create_issue', { project_id: P, title: 'x', labels: ['bug', long] })).message).toBe(
      'labels.1: must be at most 255 characters (got 256)',
    );
    expect(toolError(await c.call('create_issue', { project_id: P, title: 'x', labels: ['a,b'] })).message).toBe(
      'labels.0: label names cannot be empty or contain commas',
    );
    expect(toolError(await c.call('create_issue', { project_id: P, title: 'x', labels: [''] })).message).toBe(
      'labels.0: label names cannot be empty or contain commas',
    );
    expect(toolError(await c.call('create_issue_emoji_reaction', { project_id: P, issue_iid: '1', name: 'e'.repeat(256) })).message).toBe(
      'name: must be at most 255 characters (got 256)',
    );
    expect(h.upstream()).toEqual([]);
  });
});
