// A variable's value is a secret (D13, issue 38): it leaves the server only when the call asked
// for it (include_value: true) and the variable is neither masked nor hidden. Every variable tool
// passes the forge's answer through here, before lean records or full_response see it, so no
// other path can carry a value out.
type Rec = Record<string, unknown>;

const isRecord = (v: unknown): v is Rec => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The variable without its value, unless asked for and shown by GitLab's own rules. */
export function redactVariable(record: unknown, includeValue: boolean): unknown {
  if (!isRecord(record)) return record;
  const { value, ...rest } = record;
  const shown = includeValue && record.masked !== true && record.hidden !== true && typeof value === 'string';
  if (shown) return { ...rest, value };
  if (!includeValue) return rest;
  // Asked for and withheld: say why, so an agent does not take it for an empty value.
  return { ...rest, value_withheld: record.hidden === true ? 'hidden' : record.masked === true ? 'masked' : 'absent' };
}

/** A page ({items, pagination}) or an array of variables, each redacted. */
export function redactVariables(result: unknown, includeValue: boolean): unknown {
  if (Array.isArray(result)) return result.map((r) => redactVariable(r, includeValue));
  if (isRecord(result) && Array.isArray(result.items)) return { ...result, items: result.items.map((r) => redactVariable(r, includeValue)) };
  return redactVariable(result, includeValue);
}
