// Every GraphQL document the work item tools send, validated with the `graphql` package against the
// subset of GitLab's schema in test/fixtures/gitlab-schema.graphql (names from GitLab's GraphQL
// reference), as the fake forge builds it per edition: a misspelt field or argument fails here, not a
// user. The `free` variants must also pass the Community Edition's schema, which lacks ee/'s types.
import { describe, expect, test } from 'bun:test';
import { parse, validate } from 'graphql';
import { MAX_DOCUMENT_CHARS } from '../src/forge/graphql';
import * as documents from '../src/tools/work-items/documents';
import { ForgeModel } from './support/fake-forge';
import { schemaFor } from './support/fake-forge/graphql/schema';

const model = (edition: ForgeModel['edition'], version: ForgeModel['version']) => Object.assign(new ForgeModel(), { edition, version });
const CURRENT_EE = schemaFor(model('ee-premium', '18.2.0'));
const OLDER_EE = schemaFor(model('ee-premium', '17.11.0'));
const CE = schemaFor(model('ce', '18.2.0'));

const errorsOf = (schema: typeof CE, text: string) => validate(schema, parse(text)).map((e) => e.message);

describe('every document the tools send', () => {
  test.each(documents.ALL_DOCUMENTS.map((d) => [d.operation, d] as const))(
    "%s is valid against GitLab's schema and within its size limit",
    (_name, document) => {
      expect(errorsOf(CURRENT_EE, document.text)).toEqual([]);
      expect(document.text.length).toBeLessThanOrEqual(MAX_DOCUMENT_CHARS);
    },
  );

  test('the variants of each read and write fit the schema of the editions they are sent to', () => {
    for (const family of [
      documents.LIST_WORK_ITEMS,
      documents.GET_WORK_ITEM,
      documents.GET_WORK_ITEM_BY_IID,
      documents.LIST_WORK_ITEM_CHILDREN,
      documents.CREATE_WORK_ITEM,
      documents.UPDATE_WORK_ITEM,
      documents.CONVERT_WORK_ITEM,
    ]) {
      expect(errorsOf(CE, family.free.text)).toEqual([]);
      expect(errorsOf(OLDER_EE, family.paid.text)).toEqual([]);
      // What the variants are for: the Community Edition refuses ee/'s widget types whole.
      expect(errorsOf(CE, family.paid.text).join(' ')).toContain('Unknown type "WorkItemWidgetWeight"');
      expect(errorsOf(OLDER_EE, family.status.text).join(' ')).toContain('Unknown type "WorkItemWidgetStatus"');
    }
  });

  test('a misspelt field is caught (the check can fail)', () => {
    expect(errorsOf(CURRENT_EE, documents.RESOLVE_WORK_ITEM.text.replace('workItems(', 'workitems('))).not.toEqual([]);
  });
});
