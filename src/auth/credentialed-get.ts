// The one way the checks at the door (credential-check.ts, token-profile.ts) ask the forge about a
// credential: a GET carrying it, with no redirects (the request carries the credential, and a
// redirect is no answer anyway), the endpoint's timeout and fetch options, its request metric, and
// (tracing on) a client span below the span of the request that asked (D46).
import { credentialHeader, type Credential } from '../forge/credential';
import type { FetchLike } from '../forge/client';
import type { ForgeEndpoint } from '../forge/endpoint';
import { requestSpan, spanAnswered, spanUnanswered } from '../forge/forge-span';
import type { TraceSpan } from '../tracing/span';

/** The forge's response; a request that fails throws as fetch does, observed as 'error'. */
export async function credentialedGet(
  fetchImpl: FetchLike,
  url: string,
  credential: Credential,
  endpoint: ForgeEndpoint,
  trace?: TraceSpan,
): Promise<Response> {
  const [name, value] = credentialHeader(credential);
  const headers: Record<string, string> = { [name]: value, Accept: 'application/json' };
  const span = trace ? requestSpan(trace, endpoint, 'GET', url, 0, headers) : undefined;
  const started = performance.now();
  try {
    const response = await fetchImpl(url, {
      method: 'GET',
      headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(endpoint.timeoutMs),
      ...endpoint.fetchOptions,
    });
    endpoint.observe?.(response.status, (performance.now() - started) / 1000);
    if (span) spanAnswered(span, response.status);
    return response;
  } catch (error) {
    endpoint.observe?.('error', (performance.now() - started) / 1000);
    if (span) spanUnanswered(span, error);
    throw error;
  }
}
