// Lossless conversion of arguments sent with another JSON type than the schema's (agents send ids
// as numbers or strings alike; docs/architecture.md "Validation before the network"). Only changes
// that lose nothing are made: a digit string becomes an integer, a safe integer becomes a digit
// string for a string id, "true"/"false" become booleans, a decimal string becomes a number. Every
// other value is left as it came, so the schema check refuses it naming the parameter: 50.5 is
// never rounded to 50, 1e308 never becomes "1e+308" (D31).
import type { TObject, TSchema } from '@sinclair/typebox';

type Convert = (value: unknown) => unknown;

const INTEGER_TEXT = /^-?[0-9]+$/;
const DECIMAL_TEXT = /^-?[0-9]+(\.[0-9]+)?$/;

function toInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !INTEGER_TEXT.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : value;
}

/** A double holds 15 significant decimal digits exactly. */
const DOUBLE_DIGITS = 15;

function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || !DECIMAL_TEXT.test(value) || value.replace(/[-.]/g, '').length > DOUBLE_DIGITS) return value;
  return Number(value);
}

function toText(value: unknown): unknown {
  return typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
}

function toBoolean(value: unknown): unknown {
  return value === 'true' ? true : value === 'false' ? false : value;
}

/** A union of constants (an enum): the constant whose text the value spells, if any. */
function toConstant(constants: unknown[]): Convert {
  return (value) => {
    if (constants.includes(value)) return value;
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : typeof value === 'string' ? value : undefined;
    if (text === undefined) return value;
    const match = constants.find((c) => (typeof c === 'number' || typeof c === 'boolean') && String(c) === text) ?? constants.find((c) => c === text);
    return match === undefined ? value : match;
  };
}

function converterFor(schema: TSchema): Convert | undefined {
  if (Array.isArray(schema.anyOf) && schema.anyOf.every((s: TSchema) => 'const' in s)) return toConstant(schema.anyOf.map((s: TSchema) => s.const));
  switch (schema.type) {
    case 'integer':
      return toInteger;
    case 'number':
      return toNumber;
    case 'string':
      return toText;
    case 'boolean':
      return toBoolean;
    case 'array': {
      const item = schema.items ? converterFor(schema.items as TSchema) : undefined;
      return item ? (value) => (Array.isArray(value) ? value.map(item) : value) : undefined;
    }
    default:
      return undefined;
  }
}

/** Built once per tool: a function returning a converted copy of the arguments (the input is never changed). */
export function compileConversion(schema: TObject): (args: unknown) => unknown {
  const converters = Object.entries(schema.properties)
    .map(([name, property]) => [name, converterFor(property)] as const)
    .filter((entry): entry is readonly [string, Convert] => entry[1] !== undefined);
  return (args) => {
    if (!args || typeof args !== 'object' || Array.isArray(args)) return args;
    const converted: Record<string, unknown> = { ...(args as Record<string, unknown>) };
    for (const [name, convert] of converters) if (name in converted) converted[name] = convert(converted[name]);
    return converted;
  };
}
