// A tool's outputSchema (D41), derived from what the catalog does with its result so schema and
// result cannot drift: the record kind's lean schema (lean/schema-parts.ts) for one record, the
// items of a list or of a page ({items, pagination}, D16), with the fields a cut result adds
// (bounded-result.ts) and the issues a write's text closes (closes_issues); a full_response
// admits the forge's record too. A tool with no record kind declares its result in `output`
// (define.ts), or its result is any object (the forge's own record, passed on).
//
// Nothing at the top is required and the top is never closed: a D17 error result carries
// {error} in structuredContent, and the 1.x SDK client checks that against the outputSchema too.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import type { ToolDefinition } from './define';
import { hasFullResponse } from './define';
import { RECORD_KINDS } from './lean';
import { ANY_OBJECT, B, fields, list, PAGINATION, S, STRINGS } from './lean/schema-parts';

/** What a result cut at MAX_RESULT_BYTES adds (bounded-result.ts). */
const CUT = { truncated: B, truncation: S };

/**
 * Whether a record tool returns a list: a tool with per_page, or a `list_` tool without one, returns
 * its records as `items` (with the forge's pagination when it paged); any other returns one record.
 * A comparison pages its own files (get_branch_diffs): one record, with the pagination beside it.
 */
function returnsList(tool: ToolDefinition): boolean {
  if (tool.record === 'compare') return false;
  return 'per_page' in tool.input.properties || tool.name.startsWith('list_');
}

/** The record as published: lean, or for a full_response also whatever the forge sent. */
function recordSchema(tool: ToolDefinition, lean: TObject): TSchema {
  return hasFullResponse(tool) ? Type.Union([lean, ANY_OBJECT]) : lean;
}

/** A declared result with the fields a cut adds, as open or closed as it was declared. */
function withCut(schema: TObject): TObject {
  return Type.Object({ ...schema.properties, ...fields(CUT).properties }, { additionalProperties: schema.additionalProperties ?? false });
}

/** The root as published: always an object (the SDK's 2025 codec wraps any other root in {result}). */
function orForgeRecord(tool: ToolDefinition, schema: TObject): TObject {
  return hasFullResponse(tool) ? (Type.Union([schema, ANY_OBJECT], { type: 'object' }) as unknown as TObject) : schema;
}

export function outputSchemaOf(tool: ToolDefinition): TObject {
  if (tool.output) return orForgeRecord(tool, withCut(tool.output));
  if (!tool.record) return ANY_OBJECT as unknown as TObject;
  const kind = RECORD_KINDS[tool.record].schema;
  const lean = tool.closingText ? fields({ ...kind.properties, closes_issues: STRINGS }) : kind;
  if (returnsList(tool)) return fields({ items: list(recordSchema(tool, lean)), pagination: PAGINATION, ...CUT });
  const paged: Record<string, TSchema> = 'per_page' in tool.input.properties ? { pagination: PAGINATION } : {};
  return orForgeRecord(tool, fields({ ...lean.properties, ...paged, ...CUT }));
}
