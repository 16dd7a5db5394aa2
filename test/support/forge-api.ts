// Raw REST calls to the fake forge, for tests of what the tools never send (GitLab's own errors).
import { TOKENS, type FakeForge } from './fake-forge';

export async function forgeApi(forge: FakeForge, path: string, o: { method?: string; json?: unknown; token?: string } = {}) {
  const headers = new Headers({ 'PRIVATE-TOKEN': o.token ?? TOKENS.maintainer });
  if (o.json !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(forge.apiUrl + path, {
    method: o.method ?? (o.json !== undefined ? 'POST' : 'GET'),
    headers,
    body: o.json === undefined ? undefined : JSON.stringify(o.json),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}
