// The SDK's web-standard streamable HTTP transport as the legacy lane uses it (D27):
// plain JSON responses, one transport per stateful session or per stateless request. SDK v2 drops
// a response's per-request entries once it is handed over (test/transport.test.ts, bench/soak.ts),
// so no patch is needed here.
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

interface JsonTransportOptions {
  /** The stateful session's id; absent for a stateless request. */
  sessionId?: string;
  onSessionInitialized?: (sessionId: string) => void;
  onSessionClosed?: (sessionId: string) => void;
}

export function createJsonTransport(options: JsonTransportOptions = {}): WebStandardStreamableHTTPServerTransport {
  const sessionId = options.sessionId;
  return new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: sessionId === undefined ? undefined : () => sessionId,
    enableJsonResponse: true,
    onsessioninitialized: options.onSessionInitialized,
    onsessionclosed: options.onSessionClosed,
  });
}
