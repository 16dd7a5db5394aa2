// The one place that builds a CallToolResult (docs/architecture.md principle 4): compact JSON text plus
// the same value as structuredContent on success (D16); `<kind>: <message>` plus
// structuredContent.error on failure (D17).
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ToolError } from './errors';

/** structuredContent must be a JSON object: lists and empty answers are wrapped. */
export function asObject(value: unknown): Record<string, unknown> {
  if (value === null || value === undefined) return { success: true };
  if (Array.isArray(value)) return { items: value };
  if (typeof value === 'object') return value as Record<string, unknown>;
  return { value };
}

export function successResult(value: unknown): CallToolResult {
  const structured = asObject(value);
  return { content: [{ type: 'text', text: JSON.stringify(structured) }], structuredContent: structured };
}

export function errorResult(error: ToolError): CallToolResult {
  const detail: Record<string, unknown> = { kind: error.kind, status: error.status, message: error.message };
  if (error.retryAfter !== undefined) detail.retry_after = error.retryAfter;
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.kind}: ${error.message}` }],
    structuredContent: { error: detail },
  };
}
