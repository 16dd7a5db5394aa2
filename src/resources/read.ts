// resources/read (D44): the URI read back into its template, the template's tool calls made through
// the caller's own tools/call path (mcp/ hands in `call`: policy, token checks, audit and metrics
// included), and their results turned into resource contents. A tool's failure becomes the JSON-RPC
// error resources/read has: not found (404, or a project the caller cannot see) is the revision's
// resource-not-found (-32602 with data.uri, SEP-2164; the 2025 SDK clients read it too); a bad value
// is invalid params; the forge failing is an internal error naming its kind. A read tool's error
// message is one it would give tools/call, so nothing more is told here than there.
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type CallToolResult } from '@modelcontextprotocol/server';
import type { ResourceContent, ResourceTemplateDef } from './templates';
import { readResourceUri } from './uri';

type ToolCall = (tool: string, args: Record<string, unknown>) => Promise<CallToolResult>;

interface ToolFailure {
  kind?: string;
  message?: string;
}

/** The kinds a caller fixes by asking for something else (the URI is the request). */
const CALLER_KINDS = new Set(['validation', 'permission', 'conflict', 'mismatch']);

function failure(uri: string, result: CallToolResult): ProtocolError {
  const error = (result.structuredContent as { error?: ToolFailure } | undefined)?.error ?? {};
  const text = `${error.kind ?? 'error'}: ${error.message ?? 'the read failed'}`;
  if (error.kind === 'not_found') return new ResourceNotFoundError(uri, `Resource not found: ${text}`);
  if (error.kind && CALLER_KINDS.has(error.kind)) return new ProtocolError(ProtocolErrorCode.InvalidParams, text);
  return new ProtocolError(ProtocolErrorCode.InternalError, text);
}

/**
 * Reads a URI with the templates the caller is offered (`offered`), or throws the ProtocolError
 * the client gets: an unknown URI, or one whose template is not offered, is not found.
 */
export async function readResource(uri: string, offered: readonly ResourceTemplateDef[], call: ToolCall): Promise<{ contents: ResourceContent[] }> {
  const reading = readResourceUri(uri, offered);
  if (reading.kind === 'unknown') throw new ResourceNotFoundError(uri, 'Resource not found');
  if (reading.kind === 'invalid') throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid resource URI: ${reading.problem}`);
  const values: Record<string, unknown>[] = [];
  // In order: a merge request that does not exist is not found before its diffs are asked for.
  for (const step of reading.template.steps(reading.vars)) {
    const result = await call(step.tool, step.args);
    if (result.isError) throw failure(uri, result);
    values.push((result.structuredContent ?? {}) as Record<string, unknown>);
  }
  return { contents: reading.template.contents(uri, values) };
}
