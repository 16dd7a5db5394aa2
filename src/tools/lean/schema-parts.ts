// The pieces of the lean records' schemas (D41): a kind's schema says each field's name and JSON
// type, every field optional (a lean record leaves out what is empty, helpers.ts) and no field
// beyond those listed (`additionalProperties: false`, which the published schema leaves out so a
// client never refuses a field a later release adds; tests hold results to it).
import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

export const S = Type.String();
export const I = Type.Integer();
export const N = Type.Number();
export const B = Type.Boolean();
/** An object whose fields are GitLab's, passed on as they came (a commit's stats, a file's LFS pointer). */
export const ANY_OBJECT = Type.Unsafe<Record<string, unknown>>({ type: 'object' });
export const STRINGS = Type.Array(S);

/** A lean record: the listed fields, each optional, nothing else. */
export function fields<P extends Record<string, TSchema>>(properties: P, open = false): TObject {
  const optional: TProperties = {};
  for (const key in properties) optional[key] = Type.Optional(properties[key]);
  return Type.Object(optional, { additionalProperties: open });
}

/** helpers.ts user(): who, to mention or assign. */
export const USER = fields({ id: I, username: S, name: S });
export const USERS = Type.Array(USER);
/** helpers.ts reference(). */
export const REFERENCE = fields({ id: I, iid: I, project_id: I, group_id: I, title: S, state: S, web_url: S });
/** helpers.ts milestoneRef(). */
export const MILESTONE_REF = fields({ id: I, iid: I, title: S, state: S, web_url: S });
/** helpers.ts labels(): names, or name and description with label details. */
export const LABELS = Type.Array(Type.Union([S, fields({ name: S, description: S })]));
/** Download links beside upload links in a description or body (src/downloads/attachments.ts). */
export const ATTACHMENTS = Type.Array(fields({ filename: S, url: S }));
/** Where code (a file's content, a diff, blame lines) holds invisible characters (D36, tools/sanitize.ts). */
export const INVISIBLE = fields({ count: I, lines: Type.Array(I), characters: STRINGS });
/** A diff as rows [old_line, new_line, text] (D43, diff-lines.ts): a number or null twice, then the line's text. */
export const DIFF_ROWS = Type.Array(Type.Array(Type.Unsafe<number | string | null>({ type: ['integer', 'null', 'string'] }), { minItems: 3, maxItems: 3 }));
/** helpers.ts issuableHead(). */
export const ISSUABLE_HEAD = { id: I, iid: I, project_id: I, title: S, description: S, state: S, attachments: ATTACHMENTS };

/** A number or null (forge/client.ts: Pagination, read from the forge's headers). */
const NUMBER_OR_NULL = Type.Unsafe<number | null>({ type: ['number', 'null'] });
/** A list's pagination (D16). */
export const PAGINATION = fields({
  page: NUMBER_OR_NULL,
  per_page: NUMBER_OR_NULL,
  // A GraphQL list's next page is a cursor (D45).
  next_page: Type.Unsafe<number | string | null>({ type: ['number', 'string', 'null'] }),
  total: NUMBER_OR_NULL,
  total_pages: NUMBER_OR_NULL,
});

/** A list of `item`. */
export const list = <T extends TSchema>(item: T) => Type.Array(item);
/** An object of strings by key (a code hit's lines by number). */
export const TEXTS_BY_KEY = Type.Object({}, { additionalProperties: S });

/** A JSON type or null: a value a tool builds that may be unknown (a log's line count). */
export const orNull = (type: 'integer' | 'number' | 'string' | 'object') => Type.Unsafe({ type: [type, 'null'] });
/** An id as a tool was given it: a digit string, or a number. */
const GIVEN_ID = Type.Unsafe<string | number>({ type: ['string', 'integer'] });

/**
 * What a delete answers when GitLab answers with no body: `deleted` and the id it was given. Open,
 * since GitLab answers some deletes with the deleted record (passed on as it came).
 */
export function deletedOutput(...ids: string[]): TObject {
  const named: Record<string, TSchema> = { deleted: B };
  for (const id of ids) named[id] = GIVEN_ID;
  return fields(named, true);
}
