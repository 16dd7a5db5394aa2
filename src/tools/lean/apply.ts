// Applies a record kind to what a handler returned (D33): one record, an array of records, or the
// items of a page ({items, pagination}, D16), whose pagination stays as it came; an item that is no
// record passes as it came. Each lean record is made to fit its kind's schema (conform.ts, D41).
import { conformer } from './conform';
import { isRecord, type Rec } from './helpers';
import { RECORD_KINDS, type RecordKindName } from './index';

const conformers = new Map<RecordKindName, (record: Rec) => Rec>();

function conformerOf(kind: RecordKindName): (record: Rec) => Rec {
  let found = conformers.get(kind);
  if (!found) conformers.set(kind, (found = conformer(RECORD_KINDS[kind].schema, kind)));
  return found;
}

export function applyLean(kind: RecordKindName, value: unknown): unknown {
  const lean = RECORD_KINDS[kind].lean;
  const fit = conformerOf(kind);
  const one = (item: unknown) => (isRecord(item) ? fit(lean(item)) : item);
  if (Array.isArray(value)) return value.map(one);
  if (isRecord(value) && Array.isArray(value.items)) return { ...value, items: value.items.map(one) } satisfies Rec;
  return one(value);
}
