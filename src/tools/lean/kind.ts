// A record kind: the lean projection of one kind of forge record (D33). Tools name their kind
// (`record: 'issue'` on the definition, src/tools/define.ts); the catalog applies it to a single
// record, to an array, or to the items of a page (src/tools/lean/apply.ts).
import type { TObject } from '@sinclair/typebox';
import type { Rec } from './helpers';

export interface RecordKind {
  /** Why an agent wants this record, for docs/tools.md. */
  readonly about: string;
  /** The lean record of one forge record; must not fail on a record missing fields. */
  readonly lean: (record: Rec) => Rec;
  /**
   * The lean record's fields and their JSON types (D41, schema-parts.ts): the catalog builds each
   * tool's outputSchema from it, and test/output-schemas.test.ts holds every result to it.
   */
  readonly schema: TObject;
}
