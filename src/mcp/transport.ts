// The SDK's web-standard streamable HTTP transport with plain JSON responses, minus two faults of
// SDK 1.32.2 (read in its webStandardStreamableHttp.js):
// - it never removes the per-POST entry it keeps for a JSON response once that response is
//   resolved, so a long session grows without bound (bench/soak.ts proves the fix): the map below
//   drops each entry the moment its response is handed over;
// - when sending a response throws (a result that cannot be serialized), the HTTP request is never
//   answered and its entries stay in three maps: the guard below answers it with a JSON-RPC error
//   (500) and removes them (D17: a protocol fault stays a JSON-RPC error).
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

interface StreamEntry {
  resolveJson?: (response: Response) => void;
  cleanup?: () => void;
}

/** The SDK transport's private per-request maps; checked at creation so an SDK change fails loudly. */
interface TransportInternals {
  _streamMapping: Map<unknown, StreamEntry>;
  _requestToStreamMapping: Map<RequestId, unknown>;
  _requestResponseMap: Map<RequestId, unknown>;
}

class SelfCleaningStreams<K> extends Map<K, StreamEntry> {
  override set(key: K, entry: StreamEntry): this {
    const resolve = entry.resolveJson;
    if (resolve) {
      entry.resolveJson = (response) => {
        this.delete(key);
        resolve(response);
      };
    }
    return super.set(key, entry);
  }
}

export interface JsonTransportOptions {
  sessionId?: string;
  onSessionInitialized?: (sessionId: string) => void;
  onSessionClosed?: (sessionId: string) => void;
  maxRequestBodySize: number;
}

const UNSENDABLE = { code: -32603, message: 'Internal error: the response could not be sent' };

function isResponse(message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } {
  return 'id' in message && ('result' in message || 'error' in message);
}

/**
 * Answers the HTTP request that `message` responds to with a JSON-RPC error (500), and removes
 * every entry the transport holds for it. False when no request is waiting for it.
 */
function answerUnsendable(internals: TransportInternals, message: JSONRPCMessage, sessionId: string | undefined): boolean {
  if (!isResponse(message)) return false;
  const streamId = internals._requestToStreamMapping.get(message.id);
  if (streamId === undefined) return false;
  const ids: RequestId[] = [];
  for (const [id, stream] of internals._requestToStreamMapping) if (stream === streamId) ids.push(id);
  for (const id of ids) {
    internals._requestToStreamMapping.delete(id);
    internals._requestResponseMap.delete(id);
  }
  const stream = internals._streamMapping.get(streamId);
  internals._streamMapping.delete(streamId);
  if (stream?.resolveJson) {
    const errors = ids.map((id) => ({ jsonrpc: '2.0', id, error: UNSENDABLE }));
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    stream.resolveJson(new Response(JSON.stringify(errors.length === 1 ? errors[0] : errors), { status: 500, headers }));
  } else {
    stream?.cleanup?.();
  }
  return true;
}

export function createJsonTransport(options: JsonTransportOptions): WebStandardStreamableHTTPServerTransport {
  const sessionId = options.sessionId;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: sessionId === undefined ? undefined : () => sessionId,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxRequestBodySize,
    onsessioninitialized: options.onSessionInitialized,
    onsessionclosed: options.onSessionClosed,
  });
  // Private fields of the SDK class; bench/soak.ts and test/transport.test.ts fail if a future
  // SDK renames them (the entry count would grow again).
  const internals = transport as unknown as TransportInternals;
  if (!(internals._streamMapping instanceof Map) || !(internals._requestToStreamMapping instanceof Map) || !(internals._requestResponseMap instanceof Map)) {
    throw new Error('SDK transport internals changed: _streamMapping, _requestToStreamMapping or _requestResponseMap not found');
  }
  internals._streamMapping = new SelfCleaningStreams();
  const send = transport.send.bind(transport);
  transport.send = (message, sendOptions) =>
    send(message, sendOptions).catch((error: unknown) => {
      answerUnsendable(internals, message, transport.sessionId);
      throw error; // the SDK passes it on to the server's onerror, which logs it
    });
  return transport;
}

/** Number of per-request entries the transport still holds in any of its maps (0 when idle); for leak tests. */
export function pendingStreamEntries(transport: WebStandardStreamableHTTPServerTransport): number {
  const internals = transport as unknown as TransportInternals;
  return internals._streamMapping.size + internals._requestToStreamMapping.size + internals._requestResponseMap.size;
}
