// One ForgeEndpoint per normalized API URL, created on first use with the deployment's proxy and
// TLS settings and reused after (SPEC dynamic API URL rule 6).
import { createEndpoint, type ForgeEndpoint, type ForgeEndpointOptions } from './endpoint';

export class ForgePool {
  private readonly endpoints = new Map<string, ForgeEndpoint>();

  constructor(private readonly options: ForgeEndpointOptions) {}

  endpoint(apiUrl: string): ForgeEndpoint {
    let endpoint = this.endpoints.get(apiUrl);
    if (!endpoint) {
      endpoint = createEndpoint(apiUrl, this.options);
      this.endpoints.set(apiUrl, endpoint);
    }
    return endpoint;
  }

  get size(): number {
    return this.endpoints.size;
  }
}
