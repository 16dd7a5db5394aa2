// Argument validation before any upstream call (D15, D31). Schemas are compiled once at
// start-up. A value of the wrong JSON type is accepted only when it converts without loss ("42"
// for an integer, 42 for a string id; src/tools/convert.ts). Parameters marked `identifier` fill
// URL path segments and must pass the identifier rule of src/forge/encode.ts; `slashName` values,
// parameters or fields of a list's objects, are decoded once (D26). The names of a map
// parameter (params.ts mapOf) are held to its `propertyNames`, which TypeBox does not check.
import type { TObject, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { identifierProblem, nameWithSlashesDecoded } from '../forge/encode';
import { projectUrl } from './web-url';
import { findQuickAction, quickActionProblem } from '../text/quick-actions';
import { compileConversion } from './convert';
import { invalidArgument, ToolError } from './errors';

export interface ArgumentValidator {
  /** Returns the arguments to use, or throws a validation ToolError naming the parameter. */
  validate(args: unknown): Record<string, unknown>;
}

function parameterOf(error: ValueError): string {
  const path = error.path.replace(/^\//, '').replaceAll('/', '.');
  return path || 'arguments';
}

/** The JSON type of a value, as a schema's `type` names it. */
function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * A union's error, narrowed to the branch the value's JSON type selects when exactly one does: a
 * string too long for `string | number | …` is "must be at most … characters", not "expected union
 * value". Unions of constants (enums) are explained as a whole.
 */
function narrowest(error: ValueError): ValueError {
  if (error.type !== ValueErrorType.Union) return error;
  const kind = jsonType(error.value);
  const candidates = (error.schema.anyOf ?? []) as TSchema[];
  if (candidates.some((branch) => 'const' in branch)) return error;
  const branches = candidates.flatMap((branch, i) => (branch.type === kind || (kind === 'number' && branch.type === 'integer') ? [i] : []));
  if (branches.length !== 1) return error;
  const inner = error.errors[branches[0]]?.First();
  return inner ? narrowest(inner) : error;
}

function explain(error: ValueError): string {
  // Sizes first: a schema's hint explains its pattern or range, and would misname a length limit.
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required';
    case ValueErrorType.StringMaxLength:
      return `must be at most ${error.schema.maxLength} characters (got ${(error.value as string).length})`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${error.schema.maxItems} items (got ${(error.value as unknown[]).length})`;
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${error.schema.maxProperties} entries (got ${Object.keys(error.value as object).length})`;
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a parameter of this tool';
  }
  const hint = (error.schema as { hint?: string }).hint;
  if (hint) return hint;
  if (error.type === ValueErrorType.StringMinLength) {
    return error.schema.minLength === 1 ? 'must not be empty' : `must be at least ${error.schema.minLength} characters`;
  }
  if (error.schema.enum || error.schema.anyOf) {
    const values = (error.schema.anyOf ?? []).map((s: { const?: unknown }) => s.const).filter((v: unknown) => v !== undefined);
    if (values.length) return `must be one of ${values.join(', ')}`;
  }
  return error.message.replace(/^Expected/, 'expected');
}

/**
 * D31: JSON can carry a lone UTF-16 surrogate ("\ud800") that no UTF-8 can: encodeURIComponent
 * throws on it (a path or query value: a JSON-RPC internal error instead of a tool error) and a body
 * would carry an escape GitLab cannot read. Refused wherever it sits in the arguments.
 */
const NOT_WELL_FORMED = 'must be well-formed Unicode text (a lone UTF-16 surrogate cannot be sent)';

/** Where the first string (or map name) holding a lone surrogate sits: `name`, `name.1`, `name.key`. */
function illFormedAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = illFormedAt(value[i], `${path}.${i}`);
      if (found) return found;
    }
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (!key.isWellFormed()) return path;
      const found = illFormedAt(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** A map's name as an error quotes it: the caller's own text, cut short. */
const quotedName = (name: string) => JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);

/** The map parameters (params.ts mapOf), each with a compiled check of its names. */
function mapParameters(schema: TObject): [string, TypeCheck<TSchema>][] {
  return Object.entries(schema.properties).flatMap(([name, property]) => {
    const names = (property as TSchema).propertyNames as TSchema | undefined;
    return names ? [[name, TypeCompiler.Compile(names)] as [string, TypeCheck<TSchema>]] : [];
  });
}

/** The names of the parameters whose values fill URL path segments. */
function identifierParameters(schema: TObject): string[] {
  return markedParameters(schema, 'identifier');
}

type Decode = (value: unknown) => unknown;

/**
 * Decodes every slashName value of `schema` (D26), in parameters and in the objects of arrays and
 * objects within them (push_files' files[].file_path), copying what it changes so the caller's
 * arguments stay as sent; undefined when the schema holds no slashName anywhere.
 */
function slashNameDecoder(schema: TSchema): Decode | undefined {
  if (schema.slashName === true) return (value) => (typeof value === 'string' ? nameWithSlashesDecoded(value) : value);
  if (schema.type === 'array' && schema.items) {
    const item = slashNameDecoder(schema.items as TSchema);
    if (!item) return undefined;
    return (value) => {
      if (!Array.isArray(value)) return value;
      const decoded = value.map(item);
      return decoded.some((v, i) => v !== value[i]) ? decoded : value;
    };
  }
  if (schema.type === 'object' && schema.properties) {
    const fields = Object.entries(schema.properties as Record<string, TSchema>).flatMap(([name, property]) => {
      const decode = slashNameDecoder(property);
      return decode ? [[name, decode] as const] : [];
    });
    if (fields.length === 0) return undefined;
    return (value) => {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
      let copy = value as Record<string, unknown>;
      for (const [name, decode] of fields) {
        if (!Object.hasOwn(copy, name)) continue;
        const decoded = decode(copy[name]);
        if (decoded !== copy[name]) copy = { ...copy, [name]: decoded };
      }
      return copy;
    };
  }
  return undefined;
}

/** The names of the parameters whose schema carries our own keyword `mark` set to true. */
function markedParameters(schema: TObject, mark: 'identifier' | 'userText' | 'webUrl'): string[] {
  return Object.entries(schema.properties)
    .filter(([, property]) => (property as TSchema)[mark] === true)
    .map(([name]) => name);
}

interface ValidatorOptions {
  /** FORGE_ALLOW_QUICK_ACTIONS: text parameters marked userText may hold quick actions (D36). */
  allowQuickActions?: boolean;
}

export function compileValidator(schema: TObject, options: ValidatorOptions = {}): ArgumentValidator {
  const check: TypeCheck<TObject> = TypeCompiler.Compile(schema);
  const convert = compileConversion(schema);
  const identifiers = identifierParameters(schema);
  // A web URL's path is held to the identifier rule; the tool checks its origin (tools/web-url.ts).
  const webUrls = new Set(markedParameters(schema, 'webUrl'));
  const decodeSlashNames = slashNameDecoder(schema);
  const maps = mapParameters(schema);
  const userTexts = options.allowQuickActions ? [] : markedParameters(schema, 'userText');
  return {
    validate(args: unknown): Record<string, unknown> {
      let valid: unknown = args ?? {};
      if (!check.Check(valid)) {
        valid = convert(valid);
        if (!check.Check(valid)) {
          const first = check.Errors(valid).First();
          if (!first) throw new ToolError('validation', 'arguments: invalid');
          // A missing required property reports on the parent; name the property itself.
          const error = narrowest(first);
          throw new ToolError('validation', `${parameterOf(error)}: ${explain(error)}`);
        }
      }
      // After the schema check, which bounds the arguments' depth and size.
      for (const name in valid as object) {
        const found = illFormedAt((valid as Record<string, unknown>)[name], name);
        if (found) throw invalidArgument(found, NOT_WELL_FORMED);
      }
      const values = (decodeSlashNames ? decodeSlashNames(valid) : valid) as Record<string, unknown>;
      for (const name of identifiers) {
        const value = values[name];
        if (value === undefined) continue;
        const text = String(value);
        const problem = identifierProblem(webUrls.has(name) ? (projectUrl(text)?.path ?? text) : text);
        if (problem) throw invalidArgument(name, problem);
      }
      for (const [name, names] of maps) {
        const value = values[name];
        if (!value || typeof value !== 'object') continue;
        for (const key of Object.keys(value)) {
          const error = names.Check(key) ? undefined : names.Errors(key).First();
          if (error) throw invalidArgument(name, `name ${quotedName(key)} ${explain(error)}`);
        }
      }
      for (const name of userTexts) {
        const value = values[name];
        const found = typeof value === 'string' ? findQuickAction(value) : undefined;
        if (found) throw invalidArgument(name, quickActionProblem(found));
      }
      return values;
    },
  };
}
