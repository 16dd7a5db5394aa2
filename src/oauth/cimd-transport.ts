// The one outbound request of a Client ID Metadata Document fetch (D28). It connects to the address
// the SSRF guard checked (ssrf-guard.ts) instead of resolving the name again, while TLS still
// verifies the certificate for the URL's host name. Redirects are never followed (node:http does
// not), the whole exchange has a deadline, and the body is read only up to a byte limit: a declared
// length over it is refused unread, a streamed body is cut off as soon as it passes it.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './ssrf-guard';

export interface FetchLimits {
  timeoutMs: number;
  maxBytes: number;
}

type TransportResult = { ok: true; status: number; headers: Headers; body: string } | { ok: false; problem: 'too_big' | 'timeout' | 'network' };

/** Fetches `url` from `address`; injectable so that tests can see (and stop) every connection. */
export type Transport = (url: URL, address: ResolvedAddress, limits: FetchLimits) => Promise<TransportResult>;

function headersOf(raw: http.IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

export const pinnedTransport: Transport = (url, address, limits) =>
  new Promise((resolve) => {
    let settled = false;
    const finish = (result: TransportResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(result);
    };
    const client = url.protocol === 'https:' ? https : http;
    const request = client.request(
      url,
      {
        method: 'GET',
        headers: { Accept: 'application/json' },
        // The checked address, whatever the name resolves to now (no DNS rebinding).
        lookup: ((_host, options, callback) => (options?.all ? callback(null, [address]) : callback(null, address.address, address.family))) as LookupFunction,
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const headers = headersOf(response.headers);
        const declared = Number(headers.get('content-length') ?? '0');
        if (status === 200 && declared > limits.maxBytes) return finish({ ok: false, problem: 'too_big' });
        if (status !== 200) return finish({ ok: true, status, headers, body: '' });
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.byteLength;
          if (size > limits.maxBytes) return finish({ ok: false, problem: 'too_big' });
          chunks.push(chunk);
        });
        response.on('end', () => finish({ ok: true, status, headers, body: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', () => finish({ ok: false, problem: 'network' }));
      },
    );
    const timer = setTimeout(() => finish({ ok: false, problem: 'timeout' }), limits.timeoutMs);
    request.on('error', () => finish({ ok: false, problem: 'network' }));
    request.end();
  });
