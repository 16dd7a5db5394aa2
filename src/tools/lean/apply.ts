// Applies a record kind to what a handler returned (D33): one record, an array of records, or the
// items of a page ({items, pagination}, D16), whose pagination stays as it came.
import { isRecord, type Rec } from './helpers';
import { RECORD_KINDS, type RecordKindName } from './index';

export function applyLean(kind: RecordKindName, value: unknown): unknown {
  const lean = RECORD_KINDS[kind].lean;
  const one = (item: unknown) => (isRecord(item) ? lean(item) : item);
  if (Array.isArray(value)) return value.map(one);
  if (isRecord(value) && Array.isArray(value.items)) return { ...value, items: value.items.map(one) } satisfies Rec;
  return one(value);
}
