// The fake forge's GraphQL endpoint refuses what GitLab's schema lacks in graphql-ruby's words and
// extension codes (what GitLab's executor answers), and per edition: what the tools never send, so
// the tool tests cannot see it through the MCP client.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { TOKENS, WORK_ITEM_SEED as S, startFakeForge, type FakeForge } from './support/fake-forge';

let forge: FakeForge;
beforeAll(async () => {
  forge = await startFakeForge();
});
afterAll(async () => {
  await forge.stop();
});
beforeEach(() => forge.reset());

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(forge.apiUrl.replace(/\/api\/v4$/, '/api/graphql'), {
    method: 'POST',
    headers: { 'PRIVATE-TOKEN': TOKENS.maintainer, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { errors?: { message: string; extensions?: Record<string, unknown> }[]; data?: unknown };
}

describe('refusals in graphql-ruby words', () => {
  test('a field the type lacks: undefinedField', async () => {
    const body = await graphql(`query q { workItem(id: "gid://gitlab/WorkItem/${S.saml.id}") { id weigth } }`);
    expect(body.errors).toEqual([
      { message: "Field 'weigth' doesn't exist on type 'WorkItem'", extensions: { code: 'undefinedField', typeName: 'WorkItem', fieldName: 'weigth' } },
    ]);
  });

  test('on the Community Edition, an ee/ widget type is no such type, and the iteration filter no argument', async () => {
    forge.model.edition = 'ce';
    const weight = await graphql(`query q { workItem(id: "gid://gitlab/WorkItem/${S.saml.id}") { widgets { ... on WorkItemWidgetWeight { weight } } } }`);
    expect(weight.errors?.[0]).toEqual({
      message: "No such type WorkItemWidgetWeight, so it can't be a fragment condition",
      extensions: { code: 'undefinedType', typeName: 'WorkItemWidgetWeight' },
    });
    const iteration = await graphql(`query q { project(fullPath: "${S.projectPath}") { workItems(iterationId: ["1"]) { count } } }`);
    expect(iteration.errors?.[0]).toMatchObject({
      message: "Field 'workItems' doesn't accept argument 'iterationId'",
      extensions: { code: 'argumentNotAccepted' },
    });
  });

  test('the due date sorts exist from 17.9', async () => {
    const query = `query q { project(fullPath: "${S.projectPath}") { workItems(sort: DUE_DATE_ASC) { count } } }`;
    forge.model.version = '17.6.0';
    expect((await graphql(query)).errors?.[0]?.message).toContain('DUE_DATE_ASC');
    forge.model.version = '17.11.0';
    expect((await graphql(query)).errors).toBeUndefined();
  });

  test('before 16.3 a group has no workItems, before 16.7 a type no widgetDefinitions', async () => {
    forge.model.version = '16.0.0';
    const group = await graphql(`query q { group(fullPath: "${S.groupPath}") { workItems { count } } }`);
    expect(group.errors?.[0]?.message).toBe("Field 'workItems' doesn't exist on type 'Group'");
    const types = await graphql(`query q { project(fullPath: "${S.projectPath}") { workItemTypes { nodes { widgetDefinitions { type } } } } }`);
    expect(types.errors?.[0]?.message).toBe("Field 'widgetDefinitions' doesn't exist on type 'WorkItemType'");
    forge.model.version = '16.7.0';
    expect(
      (await graphql(`query q { project(fullPath: "${S.projectPath}") { workItemTypes { nodes { widgetDefinitions { type } } } } }`)).errors,
    ).toBeUndefined();
  });
});
