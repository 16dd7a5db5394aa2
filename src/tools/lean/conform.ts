// A lean record made to fit its kind's schema (D41): a value of another JSON type than the schema
// says (a forge that sends a weight as "3", an id as a string, a list where an object belongs) is
// left out, as an empty value is (helpers.ts), so a client that checks structuredContent against
// the published outputSchema does not refuse a call over the types the forge sent. An entry of a
// list of records that is no record at all (null, a string) stays as the forge sent it, as D33
// passes it on. Each kind's schema is
// turned once into a function of plain type tests; a record that fits costs one test per field.
import type { TSchema } from '@sinclair/typebox';
import { isRecord, type Rec } from './helpers';

/**
 * Told of each field left out (the kind and the field's name), when a listener is set: the tests
 * set one to prove that nothing GitLab sends is left out (the fake forge sends GitLab's types).
 */
let leftOut: ((kind: string, field: string) => void) | undefined;

export function onLeftOut(listener: typeof leftOut): void {
  leftOut = listener;
}

/** What a value that does not fit becomes: left out of its record or list. */
const DROP = Symbol('does not fit');
type Fit = (value: unknown) => unknown;

function typeTest(type: string): (value: unknown) => boolean {
  switch (type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'integer':
      return (v) => Number.isInteger(v);
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'null':
      return (v) => v === null;
    case 'array':
      return Array.isArray;
    default:
      return isRecord;
  }
}

function objectFit(schema: TSchema, kind: string): Fit {
  const properties = (schema.properties ?? {}) as Record<string, TSchema>;
  const fits: Record<string, Fit> = Object.create(null);
  for (const key in properties) fits[key] = fitOf(properties[key], kind);
  const rest = isRecord(schema.additionalProperties) ? fitOf(schema.additionalProperties as TSchema, kind) : undefined;
  return (value) => {
    if (!isRecord(value)) return DROP;
    for (const key in value) {
      // A field the schema does not name stays: the published schema is open (output-schema.ts).
      const fit = fits[key] ?? rest;
      if (!fit) continue;
      const fitted = fit(value[key]);
      if (fitted === DROP) {
        delete value[key];
        leftOut?.(kind, key);
      } else if (fitted !== value[key]) value[key] = fitted;
    }
    return value;
  };
}

function arrayFit(schema: TSchema, kind: string): Fit {
  const items = schema.items as TSchema;
  const item = fitOf(items, kind);
  // A list of records passes what is no record at all as the forge sent it (D33, apply.ts).
  const ofRecords = items.type === 'object';
  return (value) => {
    if (!Array.isArray(value)) return DROP;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const fitted = ofRecords && !isRecord(value[i]) ? value[i] : item(value[i]);
      if (fitted === value[i] && !out) continue;
      out ??= value.slice(0, i);
      if (fitted !== DROP) out.push(fitted);
    }
    return out ?? value;
  };
}

function fitOf(schema: TSchema, kind: string): Fit {
  if (Array.isArray(schema.anyOf)) {
    const options = (schema.anyOf as TSchema[]).map((option) => fitOf(option, kind));
    return (value) => {
      for (const option of options) {
        const fitted = option(value);
        if (fitted !== DROP) return fitted;
      }
      return DROP;
    };
  }
  if (Array.isArray(schema.type)) {
    const tests = (schema.type as string[]).map(typeTest);
    return (value) => (tests.some((test) => test(value)) ? value : DROP);
  }
  if (schema.type === 'object') return objectFit(schema, kind);
  if (schema.type === 'array') return arrayFit(schema, kind);
  const test = typeTest(String(schema.type));
  return (value) => (test(value) ? value : DROP);
}

/** The function that makes a lean record of `kind` fit its schema (in place; the record is the caller's own). */
export function conformer(schema: TSchema, kind: string): (record: Rec) => Rec {
  const fit = objectFit(schema, kind);
  return (record) => fit(record) as Rec;
}
