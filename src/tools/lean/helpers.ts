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
export function user(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return pick(value, ['id', 'username', 'name']);
}

export function users(value: unknown): Rec[] | undefined {
  return Array.isArray(value) ? value.map(user).filter((u): u is Rec => u !== undefined) : undefined;
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
export function reference(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return pick(value, ['id', 'iid', 'project_id', 'group_id', 'title', 'state', 'web_url']);
}

/** The nested milestone of an issue or merge request (docs/spec.md: slim milestone). */
export function milestoneRef(value: unknown): Rec | undefined {
  if (!isRecord(value)) return undefined;
  return pick(value, ['id', 'iid', 'title', 'state', 'web_url']);
}

/** Label names; with label details, each label's name and description. */
export function labels(value: unknown): unknown[] | undefined {
  if (!Array.isArray(value)) return undefined;
  return value.map((label) => (isRecord(label) ? pick(label, ['name', 'description']) : label));
}
