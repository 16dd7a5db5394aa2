// The argument summary of an audit line (D35): what a call acted on, never what it wrote. Values
// whose schema makes them ids, names or switches are kept — identifiers, numbers, booleans,
// constants of an enum, patterned ids, dates — and any other text (titles, descriptions, comment
// bodies, patches, search strings) is replaced by its length, {chars: N}; a parameter marked
// `secret: true` (params.ts secretText) by the word "secret". Built once per tool from its schema.
import type { TObject, TSchema } from '@sinclair/typebox';
import { withoutUserinfo } from './web-url';

type Summarize = (value: unknown) => unknown;

/** A kept value is never longer than this (an identifier can be 1,024 characters). */
const MAX_KEPT = 256;

const lengthOf = (value: unknown) => (typeof value === 'string' ? { chars: value.length } : typeof value);

function keptText(value: unknown): unknown {
  if (typeof value !== 'string') return typeof value === 'number' || typeof value === 'boolean' ? value : typeof value;
  return value.length > MAX_KEPT ? { chars: value.length } : value;
}

/** A secret (a CI/CD variable's value, schema keyword `secret`) is named, never measured. */
const secretMark = () => 'secret';

function summarizerFor(schema: TSchema): Summarize {
  // A project's web URL keeps everything but a user name and password (tools/web-url.ts).
  if (schema.webUrl === true) return (value) => keptText(typeof value === 'string' ? withoutUserinfo(value) : value);
  if (schema.secret === true) return secretMark;
  if (schema.type === 'array') {
    const item = schema.items ? summarizerFor(schema.items as TSchema) : lengthOf;
    return (value) => (Array.isArray(value) ? value.slice(0, 100).map(item) : typeof value);
  }
  const keeps =
    schema.type === 'integer' ||
    schema.type === 'number' ||
    schema.type === 'boolean' ||
    schema.identifier === true ||
    schema.pattern !== undefined ||
    schema.format !== undefined ||
    (Array.isArray(schema.anyOf) && schema.anyOf.every((s: TSchema) => 'const' in s));
  return keeps ? keptText : lengthOf;
}

/** The summary of a call's arguments; parameters the schema does not know are named only. */
export function compileArgSummary(schema: TObject): (args: unknown) => Record<string, unknown> {
  const summarizers = new Map(Object.entries(schema.properties).map(([name, property]) => [name, summarizerFor(property as TSchema)]));
  return (args) => {
    const summary: Record<string, unknown> = {};
    if (!args || typeof args !== 'object' || Array.isArray(args)) return summary;
    let unknown = 0;
    for (const [name, value] of Object.entries(args as Record<string, unknown>)) {
      const summarize = summarizers.get(name);
      if (summarize) summary[name] = summarize(value);
      else unknown++;
    }
    // Names the schema does not know are the caller's to write (a token could be one): counted only.
    if (unknown > 0) summary.unknown_parameters = unknown;
    return summary;
  };
}
