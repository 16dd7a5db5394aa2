// Forges that misbehave on a real loopback socket, for the bounds of D30: huge bodies
// streamed from one reused chunk (nothing allocated per byte), declared or not; bodies cut off
// mid-way; bodies that never finish. `GET …/user` answers a small user, so a credential check
// before a session opens (D7) passes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { CallToolResult } from '@modelcontextprotocol/client';

const MiB = 1024 * 1024;
const SPACES = Buffer.alloc(MiB, 0x20);
const LETTERS = Buffer.alloc(MiB, 0x78);
const JSON_HEAD = Buffer.from('{"id":1,"iid":1,"title":"');
const JSON_TAIL = Buffer.from('"}');

export interface HugeBody {
  /** Total bytes the body would have. */
  bytes: number;
  /** Send Content-Length (true) or stream it chunked (false). */
  declare: boolean;
  status?: number;
  contentType?: string;
  /** `spaces` (the default) is not JSON; `json` is one object whose title fills the body. */
  fill?: 'spaces' | 'json';
}

export interface HostileForge {
  apiUrl: string;
  port: number;
  /** Body bytes written per request so far (the socket's own buffers included). */
  written: number[];
  /** Requests seen, as "METHOD /path". */
  seen: string[];
  stop(): Promise<void>;
}

const USER = JSON.stringify({ id: 1, username: 'maria', name: 'Maria' });

/** Answers every request but `/user` with a body of `body.bytes` bytes, written as the reader takes them. */
export function startHugeBodyForge(body: HugeBody | ((request: IncomingMessage) => HugeBody)): Promise<HostileForge> {
  const written: number[] = [];
  const seen: string[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    seen.push(`${request.method} ${request.url}`);
    if (request.url?.endsWith('/user')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(USER.length) }).end(USER);
      return;
    }
    const spec = typeof body === 'function' ? body(request) : body;
    const index = written.push(0) - 1;
    const headers: Record<string, string> = { 'content-type': spec.contentType ?? 'application/json' };
    if (spec.declare) headers['content-length'] = String(spec.bytes);
    response.writeHead(spec.status ?? 200, headers);
    let closed = false;
    response.on('close', () => (closed = true));
    const json = spec.fill === 'json';
    const end = json ? spec.bytes - JSON_TAIL.length : spec.bytes;
    // The next piece of the body: a view of a shared buffer, never a new allocation of its size.
    const next = (at: number): Buffer => {
      if (json && at === 0) return JSON_HEAD;
      if (at < end) return (json ? LETTERS : SPACES).subarray(0, Math.min(MiB, end - at));
      return JSON_TAIL.subarray(0, spec.bytes - at);
    };
    const pump = () => {
      while (!closed && written[index] < spec.bytes) {
        const piece = next(written[index]);
        written[index] += piece.length;
        if (!response.write(piece)) {
          response.once('drain', pump);
          return;
        }
      }
      if (!closed) response.end();
    };
    pump();
  });
  return listen(server, written, seen);
}

function listen(server: ReturnType<typeof createServer>, written: number[], seen: string[]): Promise<HostileForge> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      resolve({
        apiUrl: `http://127.0.0.1:${port}/api/v4`,
        port,
        written,
        seen,
        stop: () =>
          new Promise<void>((done) => {
            server.closeAllConnections?.();
            server.close(() => done());
          }),
      });
    });
  });
}

/**
 * A raw TCP forge: on each request (but `/user`) writes `head` (status line and headers) and
 * `body`, then either closes the socket (`end: 'close'`) or keeps it open and silent (`end: 'hang'`).
 */
export function startRawForge(head: string, body: string, end: 'close' | 'hang') {
  const requests: string[] = [];
  const listener = Bun.listen({
    hostname: '127.0.0.1',
    port: 0,
    socket: {
      data(socket, data) {
        const line = data.toString().split('\r\n')[0];
        requests.push(line);
        if (/\/user HTTP/.test(line)) {
          socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${USER.length}\r\n\r\n${USER}`);
          return;
        }
        socket.write(`${head}\r\n\r\n${body}`);
        if (end === 'close') setTimeout(() => socket.end(), 20);
      },
    },
  });
  return { apiUrl: `http://127.0.0.1:${listener.port}/api/v4`, requests, stop: () => listener.stop(true) };
}

/** A forge on Bun.serve whose answers come from `answer`; `/user` answers a small user. */
export function startForgeAnswering(answer: (request: Request) => Response | Promise<Response>) {
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: (request) =>
      new URL(request.url).pathname.endsWith('/user') ? new Response(USER, { headers: { 'content-type': 'application/json' } }) : answer(request),
  });
  return { apiUrl: `http://127.0.0.1:${server.port}/api/v4`, stop: () => server.stop(true) };
}

/**
 * The error of a tool result; a success fails the test naming only its size (a result made from a
 * huge forge answer must never be printed whole).
 */
export function briefToolError(result: CallToolResult): { kind: string; status: number | null; message: string } {
  if (!result.isError) throw new Error(`expected a tool error, got a result of ${JSON.stringify(result).length} characters`);
  return (result.structuredContent as { error: { kind: string; status: number | null; message: string } }).error;
}
