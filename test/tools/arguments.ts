// Tool arguments built from the catalog itself, for tests that go over every tool: the endpoint
// templates a tool names, and baseline arguments that pass its validation, derived from its schema.
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ToolDefinition } from '../../src/tools/define';
import { ToolError } from '../../src/tools/errors';
import { compileValidator } from '../../src/tools/validate';

/** Every path template in a tool's `endpoint` text ("GET /projects/{project_id}/… or POST …"). */
export function templatesOf(tool: ToolDefinition): string[] {
  const found = [...(tool.endpoint ?? '').matchAll(/\/[A-Za-z0-9_{}/.-]+/g)].map((m) => m[0]);
  return [...new Set(found)];
}

/** The parameters the templates put in a path. */
export function pathParametersOf(tool: ToolDefinition): string[] {
  return [...new Set(templatesOf(tool).flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1])))];
}

/** Is this raw (still encoded) path segment one that URL parsers or servers resolve as "." or ".."? */
export function isDotSegment(raw: string): boolean {
  if (raw === '' || ['.', '..', '%2e', '.%2e', '%2e.', '%2e%2e'].includes(raw.toLowerCase())) return true;
  try {
    const decoded = decodeURIComponent(raw);
    return decoded === '.' || decoded === '..' || decoded.split(/[/\\]/).some((part) => part === '.' || part === '..');
  } catch {
    return false;
  }
}

/** Does a request path (below /api/v4) fill one of the templates, each placeholder with exactly one non-dot segment? */
export function withinTemplates(path: string, templates: string[]): boolean {
  return templates.some((template) => {
    const pattern = template
      .split(/(\{\w+\})/)
      .map((part) => (part.startsWith('{') ? '([^/]*)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    const match = new RegExp(`^${pattern}$`).exec(path);
    return match?.slice(1).every((segment) => !isDotSegment(segment));
  });
}

const STRING_SAMPLES = ['1', 'main', '2026-01-31', '2026-01-31T00:00:00Z', 'thumbsup', 'x', 'https://example.test/x'];

/** A value the schema accepts. */
export function sample(schema: TSchema): unknown {
  if (Array.isArray(schema.anyOf)) return 'const' in schema.anyOf[0] ? schema.anyOf[0].const : sample(schema.anyOf[0]);
  switch (schema.type) {
    case 'integer':
    case 'number':
      return Math.max(schema.minimum ?? 1, 1);
    case 'boolean':
      return false;
    case 'array':
      return [sample(schema.items as TSchema)];
    case 'string': {
      const found = STRING_SAMPLES.find((s) => Value.Check(schema, s));
      if (found === undefined) throw new Error(`no sample string fits ${JSON.stringify(schema)}`);
      return found;
    }
    case 'object': {
      const properties = schema.properties as Record<string, TSchema>;
      return Object.fromEntries(((schema.required as string[] | undefined) ?? []).map((name) => [name, sample(properties[name])]));
    }
    default:
      throw new Error(`no sample for ${JSON.stringify(schema)}`);
  }
}

/**
 * Arguments that pass the tool's schema and its cross-field check: the required parameters, plus
 * whatever the check then asks for (update tools need one field to change). Throws if none can be built.
 */
export function baselineArguments(tool: ToolDefinition): Record<string, unknown> {
  const properties = tool.input.properties as Record<string, TSchema>;
  const required = (tool.input.required as string[] | undefined) ?? [];
  const args: Record<string, unknown> = Object.fromEntries(required.map((name) => [name, sample(properties[name])]));
  const validator = compileValidator(tool.input);
  const pathParameters = new Set(pathParametersOf(tool));
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      tool.check?.(validator.validate(args) as never);
      return args;
    } catch (error) {
      if (!(error instanceof ToolError) || error.kind !== 'validation') throw error;
      const named = error.message.split(':')[0];
      // A field of a list's item (`files[0].content`): filled in that item.
      const nested = /^(\w+)\[(\d+)\]\.(\w+)$/.exec(named);
      const itemSchema = nested ? (properties[nested[1]]?.items as TSchema | undefined) : undefined;
      const item = nested && Array.isArray(args[nested[1]]) ? (args[nested[1]] as Record<string, unknown>[])[Number(nested[2])] : undefined;
      if (nested && itemSchema?.properties?.[nested[3]] && item && !(nested[3] in item)) {
        item[nested[3]] = sample(itemSchema.properties[nested[3]]);
        continue;
      }
      const missing = named in properties && !(named in args) ? named : Object.keys(properties).find((name) => !(name in args) && !pathParameters.has(name));
      if (!missing) throw new Error(`${tool.name}: no valid baseline arguments (${error.message})`);
      args[missing] = sample(properties[missing]);
    }
  }
  throw new Error(`${tool.name}: no valid baseline arguments`);
}
