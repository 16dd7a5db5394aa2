// Shared pieces of the lean records (D33): what every kind drops the same way. A lean record is a
// whitelist of the fields an agent acts on; null and empty values are left out, users become
// {id, username, name}, flags appear only when true, and presentation (avatars, _links, HTML
// renderings, time stats) never appears because no kind lists it.

export type Rec = Record<string, unknown>;

export function isRecord(value: unknown): value is Rec {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function empty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (isRecord(value)) {
    for (const _ in value) return false;
    return true;
  }
  return false;
}

/** The record without null, undefined, '', [] and {} values (one level). */
export function compact(record: Rec): Rec {
  const out: Rec = {};
  for (const key in record) if (!empty(record[key])) out[key] = record[key];
  return out;
}

/** The listed fields of `record`, in that order, empty ones left out. */
export function pick(record: Rec, keys: readonly string[]): Rec {
  const out: Rec = {};
  for (const key of keys) if (!empty(record[key])) out[key] = record[key];
  return out;
}

/** A user as an agent needs it: who, to mention or assign (D33). */
const USER_FIELDS = ['id', 'username', 'name'];

export function user(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return pick(value, USER_FIELDS);
}

export function users(value: unknown): Rec[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: Rec[] = [];
  for (const item of value) if (isRecord(item)) out.push(pick(item, USER_FIELDS));
  return out;
}

/** What an issue and a merge request both open with: which one it is, where, what it says, its state. */
export function issuableHead(r: Rec): Rec {
  return { id: r.id, iid: r.iid, project_id: r.project_id, title: r.title, description: r.description, state: r.state };
}

/** A flag shown only when set: its absence reads as false. */
export function flag(value: unknown): true | undefined {
  return value === true ? true : undefined;
}

/** A count shown only when there is something to count. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}

/** An issue, merge request or milestone referred to from another record: enough to find and name it. */
const REFERENCE_FIELDS = ['id', 'iid', 'project_id', 'group_id', 'title', 'state', 'web_url'];

export function reference(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return pick(value, REFERENCE_FIELDS);
}

/** The nested milestone of an issue or merge request (docs/spec.md: slim milestone). */
const MILESTONE_REF_FIELDS = ['id', 'iid', 'title', 'state', 'web_url'];

export function milestoneRef(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return pick(value, MILESTONE_REF_FIELDS);
}

/** Label names; with label details, each label's name and description. */
const LABEL_FIELDS = ['name', 'description'];

export function labels(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: unknown[] = [];
  for (const label of value) out.push(isRecord(label) ? pick(label, LABEL_FIELDS) : label);
  return out;
}
