// The SDK's web-standard streamable HTTP transport with plain JSON responses, minus its leak.
// SDK 1.32.2 never removes the per-POST entry it keeps for a JSON response once that response
// is resolved, so a long session grows without bound (stack-notes.md; bench/soak.ts proves the
// fix). The map below drops each entry the moment its response is handed over.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';

interface StreamEntry {
  resolveJson?: (response: Response) => void;
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

export function createJsonTransport(options: JsonTransportOptions): WebStandardStreamableHTTPServerTransport {
  const sessionId = options.sessionId;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: sessionId === undefined ? undefined : () => sessionId,
    enableJsonResponse: true,
    maxRequestBodySize: options.maxRequestBodySize,
    onsessioninitialized: options.onSessionInitialized,
    onsessionclosed: options.onSessionClosed,
  });
  // A private field of the SDK class; bench/soak.ts and test/transport-leak.test.ts fail if a
  // future SDK renames it (the entry count would grow again).
  const internals = transport as unknown as { _streamMapping: Map<unknown, StreamEntry> };
  if (!(internals._streamMapping instanceof Map)) throw new Error('SDK transport internals changed: _streamMapping not found');
  internals._streamMapping = new SelfCleaningStreams();
  return transport;
}

/** Number of per-request entries the transport still holds (0 when idle); for leak tests. */
export function pendingStreamEntries(transport: WebStandardStreamableHTTPServerTransport): number {
  return (transport as unknown as { _streamMapping: Map<unknown, unknown> })._streamMapping.size;
}
