// A forge on a loopback port that holds every tool call's request until the test releases it, for
// what must happen while a call is under way (eviction, cancellation, a session closing). `GET
// …/user` answers at once, so the credential check before a session opens (D7) passes; every other
// request is answered, once released, as a branch. `GET …/personal_access_tokens/self`, which the
// check asks next (D38), answers at once too, as a classic `api` token.
export interface HeldForge {
  apiUrl: string;
  /** Resolves when the first held request has arrived. */
  called: Promise<void>;
  /** Lets every held request, and every later one, through. */
  release(): void;
  stop(): void;
}

export function startHeldForge(): HeldForge {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const called = new Promise<void>((resolve) => (arrived = resolve));
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (request) => {
      if (new URL(request.url).pathname === '/api/v4/user') return Response.json({ id: 1, username: 'maria' });
      if (new URL(request.url).pathname === '/api/v4/personal_access_tokens/self')
        return Response.json({ id: 9, scopes: ['api'], user_id: 1, active: true, expires_at: null });
      arrived();
      await held;
      return Response.json({ name: 'main', commit: {} });
    },
  });
  return { apiUrl: `http://127.0.0.1:${server.port}/api/v4`, called, release, stop: () => server.stop(true) };
}
