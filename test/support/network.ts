// Real network pieces for pool tests: a self-signed certificate made with openssl, an HTTPS
// server that answers like a forge, and a small forward proxy (absolute-form HTTP and CONNECT)
// that records what went through it. Everything listens on 127.0.0.1.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SelfSigned {
  certPath: string;
  cert: string;
  key: string;
}

export function makeSelfSignedCert(): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'forge-tls-'));
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  const result = Bun.spawnSync([
    'openssl',
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
  ]);
  if (result.exitCode !== 0) throw new Error(`openssl failed: ${result.stderr.toString()}`);
  return { certPath, cert: readFileSync(certPath, 'utf8'), key: readFileSync(keyPath, 'utf8') };
}

/** An HTTPS server answering every GET with a branch named after the path's last segment. */
export function startHttpsForge(tls: SelfSigned) {
  const paths: string[] = [];
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert: tls.cert, key: tls.key },
    fetch(request) {
      const path = new URL(request.url).pathname;
      paths.push(path);
      return Response.json({ name: decodeURIComponent(path.split('/').pop() ?? ''), commit: { id: 'abc' } });
    },
  });
  return { url: `https://localhost:${server.port}/api/v4`, port: server.port as number, paths, stop: () => server.stop(true) };
}

export interface ForwardProxy {
  url: string;
  /** "CONNECT host:port" or "GET http://…" per request that went through. */
  seen: string[];
  stop(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.once('data', (first) => {
      const head = first.toString('latin1');
      const [method, target] = head.split('\r\n')[0].split(' ');
      seen.push(`${method} ${target}`);
      if (method === 'CONNECT') {
        const [host, port] = target.split(':');
        const upstream = connect(Number(port), host, () => {
          client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on('error', () => client.destroy());
        client.on('error', () => upstream.destroy());
        return;
      }
      // Absolute-form request: send it on in origin form.
      const url = new URL(target);
      const upstream = connect(Number(url.port || 80), url.hostname, () => {
        upstream.write(first.toString('latin1').replace(target, `${url.pathname}${url.search}`));
        upstream.pipe(client);
        client.pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
