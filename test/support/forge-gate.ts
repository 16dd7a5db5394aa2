// A door in front of the fake forge that can hold its answer to a refresh: a test starts a refresh,
// sees it reach the forge, sends a repeat while the first is still in flight, then lets the forge
// answer. Every other request passes straight through.
import type { FakeForge } from './fake-forge';

export interface HeldRefresh {
  /** Resolves when the held refresh has reached the door. */
  arrived: Promise<void>;
  /** Lets it through to the forge. */
  release(): void;
}

export interface ForgeGate {
  /** FORGE_API_URL through the door (the forge's OAuth endpoints are reached through it too). */
  apiUrl: string;
  /** Holds the next refresh_token request to the forge's /oauth/token until released. */
  holdNextRefresh(): HeldRefresh;
  stop(): Promise<void>;
}

export function startForgeGate(forge: FakeForge): ForgeGate {
  const target = new URL(forge.apiUrl).origin;
  let armed: { reached: () => void; released: Promise<void> } | undefined;
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      const hold = armed;
      if (hold && request.method === 'POST' && url.pathname === '/oauth/token' && new URLSearchParams(body).get('grant_type') === 'refresh_token') {
        armed = undefined;
        hold.reached();
        await hold.released;
      }
      const headers = new Headers(request.headers);
      headers.delete('host');
      headers.delete('content-length');
      return fetch(`${target}${url.pathname}${url.search}`, { method: request.method, headers, body, redirect: 'manual' });
    },
  });
  return {
    apiUrl: `http://127.0.0.1:${server.port}/api/v4`,
    holdNextRefresh() {
      const reached = Promise.withResolvers<void>();
      const released = Promise.withResolvers<void>();
      armed = { reached: reached.resolve, released: released.promise };
      return { arrived: reached.promise, release: released.resolve };
    },
    stop: async () => {
      await server.stop(true);
    },
  };
}
