// The SDK's classification of a POST to /mcp whose body the prelude has parsed (D27): the very call
// its isLegacyRequest makes for a parsed body (classifyInboundRequest over the method, the three
// standard headers and the body), kept whole rather than reduced to "legacy or not", so the prelude
// also learns when the body is no JSON-RPC message at all. test/classify.test.ts holds it equal to
// isLegacyRequest.
import { classifyInboundRequest, type InboundClassificationOutcome } from '@modelcontextprotocol/server';

export function classifyPost(request: Request, body: unknown): InboundClassificationOutcome {
  const headers = request.headers;
  return classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: headers.get('mcp-protocol-version') ?? undefined,
    mcpMethodHeader: headers.get('mcp-method') ?? undefined,
    mcpNameHeader: headers.get('mcp-name') ?? undefined,
    body,
  });
}

// The SDK's ladder cells (its stable names) for a body that is no JSON-RPC message: a value that is
// no request, notification or response, and a batch holding one. Neither revision has anything to
// serve in it, so it belongs to no lane by its content.
const NO_MESSAGE_CELLS = new Set(['invalid-json-rpc-body', 'batch-with-invalid-element']);

/** Whether the SDK refuses the body as no JSON-RPC message at all. */
export function isNoMessage(outcome: InboundClassificationOutcome): boolean {
  return outcome.kind === 'reject' && NO_MESSAGE_CELLS.has(outcome.cell);
}
