// CI/CD variables: a group of its own that `all` leaves out; values withheld unless asked for and
// never for masked or hidden variables; writes checked before the network; the forge's refusals.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../../src/app';
import { loadConfig } from '../../src/config/load';
import { ACCESS, SEED, startFakeForge, TOKENS, VARIABLE_SEED, variablesOf, type FakeForge } from '../support/fake-forge';
import { capturingLogger } from '../support/log-capture';
import { testConfig } from '../support/config';
import { connect, structured, toolError, type Connected } from '../support/mcp-client';

const P = String(SEED.project);
const SECRETS = [VARIABLE_SEED.plainValue, VARIABLE_SEED.maskedValue, VARIABLE_SEED.hiddenValue, 'file-secret-body', VARIABLE_SEED.groupValue];
const NEW_VALUE = 'NewSecretValue-2026';

let forge: FakeForge;
let app: ForgeApp;
const log = capturingLogger();
const clients: Connected[] = [];
const as = async (token: string = TOKENS.maintainer) => {
  const c = await connect(app, { 'Private-Token': token });
  clients.push(c);
  return c;
};
const upstream = () => forge.requests.filter((r) => r.path !== '/api/v4/user' && !r.path.endsWith('/metadata')).map((r) => `${r.method} ${r.path}`);
const text = (r: { content?: unknown }) => (r.content as { text: string }[]).map((c) => c.text).join('\n');
type Variable = Record<string, unknown> & { key: string };
type Page = { items: Variable[]; pagination: { total: number } };

beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { FORGE_TOOLSETS: 'variables', LOG_LEVEL: 'debug' }), { logger: log.logger });
});
beforeEach(async () => {
  forge.reset();
  app.instances.clear();
  await Promise.all(clients.splice(0).map((c) => c.close()));
  forge.requests.length = 0;
  log.lines.length = 0;
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await app.close();
  await forge.stop();
});

describe('the variables group is named, never implied', () => {
  test('FORGE_TOOLSETS=all leaves it out; naming it adds it, alone or beside all', () => {
    const groups = (value: string) => [...loadConfig({ FORGE_TOOLSETS: value, FORGE_PERSONAL_ACCESS_TOKEN: 'glpat-x' }).toolGroups];
    expect(groups('all')).not.toContain('variables');
    expect(groups('all')).toContain('context');
    expect(groups('variables')).toEqual(['variables']);
    expect(groups('all,variables')).toContain('variables');
  });

  test("a request's policy only narrows: X-MCP-Toolsets: variables on an `all` deployment lists no variable tool", async () => {
    const allApp = createApp(testConfig(forge.apiUrl, { FORGE_TOOLSETS: 'all' }));
    try {
      const policies: Record<string, string>[] = [{}, { 'X-MCP-Toolsets': 'variables' }, { 'X-MCP-Toolsets': 'context,variables' }];
      for (const headers of policies) {
        const c = await connect(allApp, { 'Private-Token': TOKENS.maintainer, ...headers });
        const names = (await c.client.listTools()).tools.map((t) => t.name);
        // The variables group's tools (the ci group's list_pipeline_variables reads a pipeline's, not these).
        expect([headers, names.filter((n) => /_(project|group)_variables?$/.test(n))]).toEqual([headers, []]);
        await c.close();
      }
    } finally {
      await allApp.close();
    }
  });
});

describe('reading variables', () => {
  test('a list carries keys, scopes and flags and no value at all', async () => {
    const result = await (await as()).call('list_project_variables', { project_id: P });
    const page = structured<Page>(result);
    expect(page.items.map((v) => v.key)).toEqual(['LOG_LEVEL', 'DEPLOY_TOKEN', 'SIGNING_KEY', 'TLS_KEY', 'DATABASE_URL', 'DATABASE_URL']);
    expect(page.items[1]).toEqual({ key: 'DEPLOY_TOKEN', environment_scope: '*', protected: true, masked: true });
    expect(page.items[3]).toMatchObject({ key: 'TLS_KEY', variable_type: 'file' });
    for (const secret of SECRETS) expect(text(result)).not.toContain(secret);
  });

  test('include_value: the value of a plain variable, never a masked or hidden one', async () => {
    const c = await as();
    const page = structured<Page>(await c.call('list_project_variables', { project_id: P, include_value: true }));
    const byKey = Object.fromEntries(page.items.slice(0, 4).map((v) => [v.key, v]));
    expect(byKey.LOG_LEVEL.value).toBe(VARIABLE_SEED.plainValue);
    expect(byKey.DEPLOY_TOKEN).toMatchObject({ value_withheld: 'masked' });
    expect(byKey.SIGNING_KEY).toMatchObject({ value_withheld: 'hidden', hidden: true });
    expect(byKey.TLS_KEY.value).toBe(VARIABLE_SEED.fileValue);
    for (const v of [byKey.DEPLOY_TOKEN, byKey.SIGNING_KEY]) expect(v.value).toBeUndefined();
    // full_response too: the forge's fields, but the masked value still withheld.
    const full = await c.call('get_project_variable', { project_id: P, key: 'DEPLOY_TOKEN', include_value: true, full_response: true });
    expect(structured(full)).toMatchObject({ key: 'DEPLOY_TOKEN', masked: true, hidden: false, raw: false, value_withheld: 'masked' });
    expect(text(full)).not.toContain(VARIABLE_SEED.maskedValue);
  });

  test('get by key; a key in two scopes needs filter.environment_scope (GitLab answers 409 without)', async () => {
    const c = await as();
    expect(structured(await c.call('get_project_variable', { project_id: P, key: 'LOG_LEVEL' }))).toEqual({
      key: 'LOG_LEVEL',
      environment_scope: '*',
      description: 'How chatty the jobs are',
    });
    const conflict = toolError(await c.call('get_project_variable', { project_id: P, key: 'DATABASE_URL' }));
    expect(conflict).toMatchObject({ kind: 'conflict', status: 409 });
    expect(conflict.message).toContain('filter[environment_scope]');
    const staging = structured(
      await c.call('get_project_variable', { project_id: P, key: 'DATABASE_URL', filter: { environment_scope: 'staging' }, include_value: true }),
    );
    expect(staging).toMatchObject({ environment_scope: 'staging', value: 'postgres://staging-db/app' });
    expect(forge.requests.at(-1)!.query.get('filter[environment_scope]')).toBe('staging');
  });

  test('upstream refusals: an unknown key is not_found, a developer is refused, an unknown project is not_found', async () => {
    expect(toolError(await (await as()).call('get_project_variable', { project_id: P, key: 'NOPE' }))).toMatchObject({
      kind: 'not_found',
      message: '404 Variable Not Found',
    });
    expect(toolError(await (await as(TOKENS.developer)).call('list_project_variables', { project_id: P }))).toMatchObject({ kind: 'permission', status: 403 });
    expect(toolError(await (await as()).call('get_group_variable', { group_id: 'acme/platform', key: 'NOPE' })).kind).toBe('permission');
  });

  test("group variables need the group Owner role; then list and get like a project's", async () => {
    forge.model.groups.get(7)!.members.set(1, ACCESS.owner);
    const c = await as();
    const result = await c.call('list_group_variables', { group_id: 'acme/platform', include_value: true });
    expect(structured<Page>(result).items).toEqual([{ key: 'REGISTRY_PASSWORD', environment_scope: '*', masked: true, value_withheld: 'masked' }]);
    expect(text(result)).not.toContain(VARIABLE_SEED.groupValue);
    expect(toolError(await c.call('get_group_variable', { group_id: '7', key: 'NOPE' })).message).toBe('404 GroupVariable Not Found');
  });
});

describe('writing variables', () => {
  test('create, update and delete; results never carry the value, even a plain one', async () => {
    const c = await as();
    const created = await c.call('create_project_variable', {
      project_id: P,
      key: 'NEW_TOKEN',
      value: NEW_VALUE,
      masked: true,
      protected: true,
      environment_scope: 'production',
      description: 'Deploys',
    });
    expect(structured(created)).toEqual({
      variable_type: 'env_var',
      key: 'NEW_TOKEN',
      protected: true,
      masked: true,
      hidden: false,
      raw: false,
      environment_scope: 'production',
      description: 'Deploys',
    });
    expect(text(created)).not.toContain(NEW_VALUE);
    const updated = await c.call('update_project_variable', { project_id: P, key: 'LOG_LEVEL', value: 'verbose-and-more', description: 'Louder' });
    expect(structured(updated)).toMatchObject({ key: 'LOG_LEVEL', description: 'Louder' });
    expect(text(updated)).not.toContain('verbose-and-more');
    expect(variablesOf(forge.model.projects.get(42)!).find((v) => v.key === 'LOG_LEVEL')!.value).toBe('verbose-and-more');
    expect(structured(await c.call('delete_project_variable', { project_id: P, key: 'DATABASE_URL', filter: { environment_scope: 'production' } }))).toEqual({
      deleted: true,
      key: 'DATABASE_URL',
      environment_scope: 'production',
    });
    expect(upstream()).toEqual([
      'POST /api/v4/projects/42/variables',
      'PUT /api/v4/projects/42/variables/LOG_LEVEL',
      'DELETE /api/v4/projects/42/variables/DATABASE_URL',
    ]);
  });

  test('masked_and_hidden: created hidden, never shown again; refused before GitLab 17.4', async () => {
    const c = await as();
    const created = structured(await c.call('create_project_variable', { project_id: P, key: 'HIDDEN_ONE', value: NEW_VALUE, masked_and_hidden: true }));
    expect(created).toMatchObject({ key: 'HIDDEN_ONE', masked: true, hidden: true });
    expect(structured(await c.call('get_project_variable', { project_id: P, key: 'HIDDEN_ONE', include_value: true }))).toMatchObject({
      value_withheld: 'hidden',
    });
    forge.model.version = '16.7.0';
    app.instances.clear();
    forge.requests.length = 0;
    expect(toolError(await c.call('create_project_variable', { project_id: P, key: 'HIDDEN_TWO', value: NEW_VALUE, masked_and_hidden: true }))).toEqual({
      kind: 'validation',
      status: null,
      message: 'masked_and_hidden: hidden variables needs GitLab 17.4 or later; this forge runs 16.7.0-ee',
    });
    expect(upstream()).toEqual([]);
  });

  test('a group environment scope on the Community Edition is refused before the network (GitLab would store *)', async () => {
    forge.model.groups.get(7)!.members.set(1, ACCESS.owner);
    forge.model.edition = 'ce';
    const c = await as();
    const refused = toolError(await c.call('create_group_variable', { group_id: '7', key: 'SCOPED', value: 'x', environment_scope: 'production' }));
    expect(refused).toMatchObject({ kind: 'validation' });
    expect(refused.message).toStartWith('environment_scope: an environment scope on a group variable needs GitLab Premium or Ultimate');
    expect(upstream()).toEqual([]);
    // What the tool prevents: the Community Edition drops the scope without a word.
    forge.model.edition = 'ee-premium';
    app.instances.clear();
    expect(structured(await c.call('create_group_variable', { group_id: '7', key: 'SCOPED', value: 'x', environment_scope: 'production' }))).toMatchObject({
      environment_scope: 'production',
    });
  });

  test("the forge's refusal of a duplicate key is a validation error naming the key, not the value", async () => {
    const result = await (await as()).call('create_project_variable', { project_id: P, key: 'LOG_LEVEL', value: NEW_VALUE });
    expect(toolError(result)).toMatchObject({ kind: 'validation', status: 400 });
    expect(text(result)).toContain('(LOG_LEVEL) has already been taken');
    expect(text(result)).not.toContain(NEW_VALUE);
  });
});

describe("the forge's refusals of writes", () => {
  test('a new value for a masked variable, not given as masked, is refused by GitLab without the value in the message', async () => {
    const result = await (await as()).call('update_project_variable', { project_id: P, key: 'DEPLOY_TOKEN', value: 'short' });
    expect(toolError(result)).toMatchObject({ kind: 'validation', status: 400 });
    expect(text(result)).toContain('value');
    expect(text(result)).not.toContain('short');
    expect(variablesOf(forge.model.projects.get(42)!).find((v) => v.key === 'DEPLOY_TOKEN')!.value).toBe(VARIABLE_SEED.maskedValue);
  });

  test('a developer cannot delete a project variable; a group Maintainer cannot create a group variable (Owner only)', async () => {
    expect(toolError(await (await as(TOKENS.developer)).call('delete_project_variable', { project_id: P, key: 'LOG_LEVEL' }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
    expect(toolError(await (await as()).call('create_group_variable', { group_id: '7', key: 'X', value: 'y' }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
    expect(toolError(await (await as()).call('update_group_variable', { group_id: '7', key: 'REGISTRY_PASSWORD', protected: true }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
    expect(toolError(await (await as()).call('delete_group_variable', { group_id: '7', key: 'REGISTRY_PASSWORD' }))).toMatchObject({
      kind: 'permission',
      status: 403,
    });
    expect(variablesOf(forge.model.projects.get(42)!).some((v) => v.key === 'LOG_LEVEL')).toBe(true);
  });
});

describe('hostile and out-of-bounds input is refused before the network, without echoing the value', () => {
  const bad: [string, Record<string, unknown>, string][] = [
    ['a key with a dash', { key: 'BAD-KEY', value: 'x' }, 'key: must be 1 to 255 letters, digits or _'],
    ['a key with a path', { key: '../../users', value: 'x' }, 'key: must be 1 to 255 letters, digits or _'],
    ['an encoded key', { key: 'A%2FB', value: 'x' }, 'key: must be 1 to 255 letters, digits or _'],
    ['a key of 256 characters', { key: 'K'.repeat(256), value: 'x' }, 'key: must be at most 255 characters (got 256)'],
    ['a value past 10,000 characters', { key: 'BIG', value: 'v'.repeat(10_001) }, 'value: must be at most 10000 characters (got 10001)'],
    ['a masked value of 7 characters', { key: 'M', value: 'Abc1234', masked: true }, 'value: is 7 characters; a masked value needs at least 8'],
    [
      'a masked value on two lines',
      { key: 'M', value: 'Abcd1234\nEfgh5678', masked: true },
      'value: spans more than one line; a masked value must be a single line',
    ],
    ['a masked value with a space', { key: 'M', value: 'Abcd 12345', masked: true, raw: true }, 'value: holds white space, which a masked value may not'],
    [
      'a masked value with $',
      { key: 'M', value: 'Abcd$12345', masked: true },
      'value: holds a character a masked value may not (allowed: A-Z a-z 0-9 _ + = / @ : . ~ -; with raw: true any character but white space)',
    ],
    [
      'hidden but not masked',
      { key: 'M', value: 'Abcd12345', masked: false, masked_and_hidden: true },
      'masked: cannot be false with masked_and_hidden: a hidden variable is always masked',
    ],
    ['an unknown variable_type', { key: 'M', value: 'x', variable_type: 'secret' }, 'variable_type: must be one of env_var, file'],
  ];
  test.each(bad)('%s', async (_label, args, message) => {
    const result = await (await as()).call('create_project_variable', { project_id: P, ...args });
    expect(toolError(result)).toEqual({ kind: 'validation', status: null, message });
    const value = args.value as string;
    if (value.length > 1) expect(text(result)).not.toContain(value);
    expect(upstream()).toEqual([]);
  });

  test('a masked raw value may hold any character but white space (MASK_AND_RAW_REGEX), and GitLab takes it', async () => {
    const result = await (await as()).call('create_project_variable', { project_id: P, key: 'RAW_MASKED', value: 'a$b%c^d&e*f', masked: true, raw: true });
    expect(structured(result)).toMatchObject({ key: 'RAW_MASKED', masked: true, raw: true });
  });

  test('the fake forge refuses what the tool refuses (so the checks match GitLab)', async () => {
    const api = `${forge.apiUrl}/projects/42/variables`;
    const post = (body: Record<string, unknown>) =>
      fetch(api, { method: 'POST', headers: { 'private-token': TOKENS.maintainer, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    for (const body of [
      { key: 'BAD-KEY', value: 'x' },
      { key: 'M', value: 'Abc1234', masked: true },
      { key: 'M', value: 'Abcd$12345', masked: true },
      { key: 'M', value: 'Abcd 12345', masked: true, raw: true },
    ]) {
      expect([body, (await post(body)).status]).toEqual([body, 400]);
    }
  });

  test('update needs something to change', async () => {
    expect(toolError(await (await as()).call('update_project_variable', { project_id: P, key: 'LOG_LEVEL' })).message).toStartWith(
      'arguments: give at least one of value,',
    );
  });
});

describe('secrets never reach a result, a log line or an audit line', () => {
  test('every tool, every value: only the include_value read of a plain variable shows it', async () => {
    forge.model.groups.get(7)!.members.set(1, ACCESS.owner);
    const c = await as();
    const results: string[] = [];
    const call = async (name: string, args: Record<string, unknown>) => results.push(text(await c.call(name, args)));
    for (const include_value of [false, true]) {
      await call('list_project_variables', { project_id: P, include_value });
      for (const key of ['DEPLOY_TOKEN', 'SIGNING_KEY', 'TLS_KEY']) await call('get_project_variable', { project_id: P, key, include_value });
      await call('list_group_variables', { group_id: '7', include_value });
      await call('get_group_variable', { group_id: '7', key: 'REGISTRY_PASSWORD', include_value });
    }
    await call('create_project_variable', { project_id: P, key: 'WRITTEN', value: NEW_VALUE, masked: true });
    await call('update_project_variable', { project_id: P, key: 'WRITTEN', value: `${NEW_VALUE}-2` });
    await call('create_group_variable', { group_id: '7', key: 'WRITTEN', value: NEW_VALUE });
    await call('update_group_variable', { group_id: '7', key: 'WRITTEN', value: `${NEW_VALUE}-3`, masked: true });
    await call('create_project_variable', { project_id: P, key: 'BAD-KEY', value: NEW_VALUE });
    await call('create_project_variable', { project_id: P, key: 'LOG_LEVEL', value: NEW_VALUE });
    const shown = results.join('\n');
    for (const secret of [VARIABLE_SEED.maskedValue, VARIABLE_SEED.hiddenValue, VARIABLE_SEED.groupValue, NEW_VALUE]) expect(shown).not.toContain(secret);
    // The one value asked for and allowed: TLS_KEY's file content, on the include_value pass only (its list and its get).
    expect(results.filter((r) => r.includes('file-secret-body'))).toHaveLength(2);
    expect(results.slice(0, 6).join('\n')).not.toContain('file-secret-body');
    const logged = log.lines.join('\n');
    expect(log.lines.length).toBeGreaterThan(0);
    for (const secret of [...SECRETS, NEW_VALUE]) expect(logged).not.toContain(secret);
    // The audit lines name the writes' value as a secret, not even its length.
    const audits = log.entries().filter((e) => e.event === 'tool_call' && String(e.tool).startsWith('create_'));
    expect(audits.length).toBeGreaterThan(0);
    for (const a of audits) expect((a.args as Record<string, unknown>).value).toBe('secret');
  });
});
