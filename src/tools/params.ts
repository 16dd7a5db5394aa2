// Parameter schemas shared by every tool, so their wording and limits are the same everywhere.
// `hint` is our own keyword: the validator shows it instead of TypeBox's generic message.
// `identifier` is our own keyword too: the value fills a URL path segment somewhere (D31), and the
// validator refuses it when it is empty or holds a `.` or `..` segment (src/forge/encode.ts).
// Both are stripped from published schemas, as are size bounds (maxLength, maxItems, maxProperties,
// a map's propertyNames, the safe integer bounds): the server enforces them and names the limit when
// one is passed.
// Conventions shared by every tool (what project_id takes, pagination defaults, date formats) are
// stated on the parameters they govern (D40: several clients never show the server's instructions
// to the model), once here so every tool says them alike, and short: tools/list is read on every
// connection (test/catalog.test.ts holds each group's bytes).
// `stringOrInteger` is our own keyword too: the parameter is an id, published as
// `["string","integer"]` whatever the server-side type (D32); conversion accepts either losslessly.
// `slashName` is our own keyword too: a branch name, ref or file path whose slashes may arrive
// %2F-encoded (D26).
// `format` is checked here and never published (D32: some model APIs refuse whole tool lists over it).
import { FormatRegistry, Type, type StringOptions, type TLiteral, type TProperties, type TSchema, type TString } from '@sinclair/typebox';

/** GitLab's own limits where it has one (D31), generous bounds elsewhere: nothing unbounded reaches the forge. */
export const LIMITS = {
  /** Issue and milestone titles (D31). */
  title: 255,
  /** Descriptions and comment bodies (D31). */
  text: 1_000_000,
  /** `search` filters (D31). */
  search: 1_000,
  /** Labels, usernames, milestone titles used as filters, status names, emoji names. */
  name: 255,
  /** Project and group ids or paths, branch names, refs, shas, thread ids. */
  identifier: 1_024,
  /** File paths in a repository. */
  filePath: 4_096,
  /** Digits of a numeric id (a 64-bit id has at most 19). */
  idDigits: 19,
  /** Items of any list parameter. */
  listItems: 100,
  /** An ISO 8601 date-time, fractions of a second included. */
  dateTime: 64,
} as const;

/** Integers beyond this lose precision in JSON; none of GitLab's numbers come near it. */
export const MAX_INTEGER = Number.MAX_SAFE_INTEGER;

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** D32: GitLab reads a date alone as midnight UTC wherever it takes an ISO 8601 time (Grape's DateTime coercion). */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function realDate(year: string, month: string, day: string): boolean {
  const d = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  return d.getUTCFullYear() === Number(year) && d.getUTCMonth() === Number(month) - 1 && d.getUTCDate() === Number(day);
}

FormatRegistry.Set('date-time', (value) => {
  const day = DATE_ONLY.exec(value);
  if (day) return realDate(day[1], day[2], day[3]);
  const m = ISO_DATE_TIME.exec(value);
  return m !== null && realDate(m[1], m[2], m[3]) && Number(m[4]) < 24 && Number(m[5]) < 60;
});
FormatRegistry.Set('date', (value) => {
  const m = ISO_DATE.exec(value);
  return m !== null && realDate(m[1], m[2], m[3]);
});

/** A description only where one says more than the name, type and format already do. */
export const described = (description?: string) => (description ? { description } : {});

/** A tool's input: these parameters and no others (an unknown one is refused, naming it). */
export const input = <P extends TProperties>(properties: P) => Type.Object(properties, { additionalProperties: false });

/** An optional choice among fixed values, as GitLab's `values:` declares them. */
export const oneOf = <T extends string | number>(values: readonly T[], description?: string) =>
  Type.Optional(Type.Union(values.map((v) => Type.Literal(v)) as TLiteral<T>[], described(description)));

// ─── Identifiers that fill URL path segments (D26, D31) ─────────────────────────────────────────

const identifier = (maxLength: number, options: StringOptions = {}) => Type.String({ minLength: 1, maxLength, identifier: true, ...options });

/** Marks an id: published as ["string","integer"] (D32). */
export const ID = { stringOrInteger: true } as const;

/** A milestone id in a write's body (update_issue, the merge request writes): 0 unsets the milestone. */
export const milestoneOrNone = () =>
  Type.String({
    pattern: '^[0-9]+$',
    maxLength: LIMITS.idDigits,
    hint: 'must be a milestone id such as 42, or 0 to unset the milestone',
    description: 'Its id, not iid; 0 unsets',
    ...ID,
  });

/** A project's numeric id or full path (`group/sub/project`, or already %2F-encoded). */
export const projectId = (description = 'Id or group/project path') => identifier(LIMITS.identifier, { description, ...ID });

/** A group's numeric id or full path (`group/subgroup`). */
export const groupId = (description = 'Id or full group path') => identifier(LIMITS.identifier, { description, ...ID });

/**
 * A name that may arrive with its slashes %2F-encoded (D26): the validator decodes such a value
 * once, so the name a tool sends is the same in a URL path, a query and a body.
 */
const SLASH_NAME = { slashName: true } as const;

/** A branch name, protection rule name (wildcards allowed), tag, ref or commit SHA. */
export const refName = (description?: string) => identifier(LIMITS.identifier, { ...described(description), ...SLASH_NAME });

/** A file's path in the repository (`src/app.ts`). */
export const filePath = (description = 'Repo path: src/app.ts') => identifier(LIMITS.filePath, { description, ...SLASH_NAME });

/** A comment thread's id (the `id` of list_issue_discussions' items). */
export const discussionId = (description = 'Thread id from the discussion list') => identifier(LIMITS.identifier, { description });

/** A positive integer id carried as a string (numbers are converted losslessly). */
export const numericId = (hint = 'must be a positive integer id such as 42', description?: string) =>
  Type.String({ pattern: '^[1-9][0-9]*$', maxLength: LIMITS.idDigits, hint, ...described(description), ...ID });

/** A positive integer id the forge takes as a number (digit strings are converted losslessly). */
export const integerId = (hint = 'must be a positive integer id such as 42', description?: string) =>
  Type.Integer({ minimum: 1, maximum: MAX_INTEGER, hint, ...described(description), ...ID });

// ─── Numbers ────────────────────────────────────────────────────────────────────────────────────

/** An integer from `minimum` up to the safe maximum (1e308 is an integer to JavaScript). */
export const integer = (minimum: number, hint: string, options: { stringOrInteger?: true } = {}) =>
  Type.Integer({ minimum, maximum: MAX_INTEGER, hint, ...options });

/** An optional line number, 1 or more (a read's start, a blame's range). */
export const lineNumber = (description: string) => Type.Optional({ ...integer(1, 'must be a line number, 1 or more'), description });

export const positiveInteger = (hint = 'must be a positive integer such as 42') => integer(1, hint);

const page = Type.Optional(integer(1, 'must be an integer, 1 or more'));
const perPage = Type.Optional(Type.Integer({ minimum: 1, maximum: 100, hint: 'must be an integer from 1 to 100', description: 'Default 20' }));
export const pagination = { page, per_page: perPage };

// ─── Text ───────────────────────────────────────────────────────────────────────────────────────

/** An issue or milestone title. */
export const title = () => Type.String({ minLength: 1, maxLength: LIMITS.title });

/** A description; empty clears it. */
export const longText = (options: StringOptions = {}) => Type.String({ maxLength: LIMITS.text, ...options });

/** A comment body. */
export const noteBody = () => Type.String({ minLength: 1, maxLength: LIMITS.text });

/** A `search` filter. */
export const search = (description = 'In title or description') => Type.Optional(Type.String({ minLength: 1, maxLength: LIMITS.search, description }));

/** A short name: label, username, milestone title as a filter, status name or stage. */
export const shortName = (options: StringOptions = {}) => Type.String({ minLength: 1, maxLength: LIMITS.name, ...options });

/** A list parameter: never more than LIMITS.listItems items. */
export const listOf = <T extends Parameters<typeof Type.Array>[0]>(items: T, description?: string) =>
  Type.Array(items, { maxItems: LIMITS.listItems, ...described(description) });

/**
 * A map parameter (name → value): never more than LIMITS.listItems entries. JSON Schema's
 * `propertyNames` holds each name to `names`; TypeBox checks only the values, so the validator
 * checks the names (validate.ts). Neither bound is published: the server names the one passed.
 */
export const mapOf = (names: TString, values: TSchema, description?: string) =>
  Type.Object({}, { additionalProperties: values, propertyNames: names, maxProperties: LIMITS.listItems, ...described(description) });

// ─── Dates ──────────────────────────────────────────────────────────────────────────────────────

export const isoDateTime = (description = 'ISO 8601 or YYYY-MM-DD') =>
  Type.Optional(
    Type.String({
      format: 'date-time',
      maxLength: LIMITS.dateTime,
      description,
      hint: 'must be an ISO 8601 date-time such as 2026-01-31T23:59:59Z, or a date such as 2026-01-31 (midnight UTC)',
    }),
  );

export const isoDate = (description = 'YYYY-MM-DD') =>
  Type.Optional(Type.String({ format: 'date', maxLength: 10, description, hint: 'must be a date in the form YYYY-MM-DD' }));

// ─── Text GitLab interprets (D36) ───────────────────────────────────────────────────────────────

/** A secret value (a CI/CD variable's): the audit line says only "secret" (tools/arg-summary.ts); no pattern, so never echoed. */
export const secretText = (maxLength: number, options: StringOptions = {}) => Type.String({ maxLength, ...options, secret: true });

/**
 * Marks a text parameter whose value GitLab would read for quick actions (an issue or merge
 * request description, a comment body): the validator refuses a `/close`-style line in it, naming
 * the parameter and the line, unless FORGE_ALLOW_QUICK_ACTIONS=true. `userText` is our own
 * keyword, stripped from published schemas like `hint` and `identifier`.
 */
export const userText = <T extends TString>(schema: T): T => ({ ...schema, userText: true });
