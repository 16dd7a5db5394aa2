// The one way the checks at the door (credential-check.ts, token-profile.ts) ask the forge about a
// credential: a GET carrying it, with no redirects (the request carries the credential, and a
// redirect is no answer anyway), the endpoint's timeout and fetch options, and its request metric.
import { credentialHeader, type Credential } from '../forge/credential';
import type { ForgeEndpoint } from '../forge/endpoint';

export type FetchLike = (input: string, init: RequestInit & Record<string, unknown>) => Promise<Response>;

/** The forge's response; a request that fails throws as fetch does, observed as 'error'. */
export async function credentialedGet(fetchImpl: FetchLike, url: string, credential: Credential, endpoint: ForgeEndpoint): Promise<Response> {
  const [name, value] = credentialHeader(credential);
  const started = performance.now();
  try {
    const response = await fetchImpl(url, {
      method: 'GET',
      headers: { [name]: value, Accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(endpoint.timeoutMs),
      ...endpoint.fetchOptions,
    });
    endpoint.observe?.(response.status, (performance.now() - started) / 1000);
    return response;
  } catch (error) {
    endpoint.observe?.('error', (performance.now() - started) / 1000);
    throw error;
  }
}
