// Typed REST client over Bun's fetch for one caller and one forge: sends the caller's credential
// in the header GitLab expects, bounds each call by FORGE_REQUEST_TIMEOUT_MS, retries reads on
// 429/502/503/504 or a dropped connection (never writes, DECISIONS D18), and turns failures into
// ToolErrors and pagination headers into the pagination object (D16, D17).
import { ToolError } from '../tools/errors';
import { credentialHeader, type Credential } from './credential';
import { buildQuery, type QueryValue } from './encode';
import type { ForgeEndpoint } from './endpoint';
import { failureFromResponse, retryAfterSeconds } from './failure';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ForgeRequest {
  method: HttpMethod;
  /** Path below the API URL, identifiers already encoded (see fillPath). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: Record<string, unknown>;
}

export interface Pagination {
  page: number | null;
  per_page: number | null;
  next_page: number | null;
  total: number | null;
  total_pages: number | null;
}

export interface ListResult<T = unknown> {
  items: T[];
  pagination: Pagination;
}

export type FetchLike = (input: string, init: RequestInit & Record<string, unknown>) => Promise<Response>;

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const MAX_RETRIES = 2;
const MAX_REDIRECTS = 3;
const BACKOFF_MS = [200, 600];
/** Safety stop for tools that walk every page (get_commit_diff with full_diff). */
export const MAX_PAGES = 50;

function headerNumber(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

export function paginationFrom(headers: Headers): Pagination {
  return {
    page: headerNumber(headers, 'x-page'),
    per_page: headerNumber(headers, 'x-per-page'),
    next_page: headerNumber(headers, 'x-next-page'),
    total: headerNumber(headers, 'x-total'),
    total_pages: headerNumber(headers, 'x-total-pages'),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ForgeClient {
  private readonly authHeader: [string, string];
  /** Status of the last upstream answer and time spent upstream, for the tool_call log line. */
  lastStatus: number | undefined;
  upstreamMs = 0;

  constructor(
    readonly endpoint: ForgeEndpoint,
    credential: Credential,
    private readonly fetchImpl: FetchLike = fetch as unknown as FetchLike,
  ) {
    this.authHeader = credentialHeader(credential);
  }

  /** Sends the request and returns the successful response; throws ToolError otherwise. */
  async send(request: ForgeRequest): Promise<Response> {
    let url = `${this.endpoint.apiUrl}${request.path}${request.query ? buildQuery(request.query) : ''}`;
    const headers: Record<string, string> = { Accept: 'application/json', [this.authHeader[0]]: this.authHeader[1] };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const canRetry = request.method === 'GET';
    const timeoutMs = this.endpoint.timeoutMs;
    const deadline = Date.now() + timeoutMs;
    let redirects = 0;
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new ToolError('timeout', `the forge did not answer within ${timeoutMs} ms`);
      let response: Response;
      const started = performance.now();
      try {
        response = await this.fetchImpl(url, {
          method: request.method,
          headers,
          body,
          signal: AbortSignal.timeout(remaining),
          redirect: 'manual',
          ...this.endpoint.fetchOptions,
        });
      } catch (error) {
        this.record('error', started);
        const name = (error as Error)?.name;
        if (name === 'TimeoutError' || name === 'AbortError') {
          throw new ToolError('timeout', `the forge did not answer within ${timeoutMs} ms`);
        }
        if (canRetry && attempt < MAX_RETRIES && Date.now() + BACKOFF_MS[attempt] < deadline) {
          await sleep(BACKOFF_MS[attempt]);
          continue;
        }
        throw new ToolError('upstream', `the forge could not be reached: ${(error as Error)?.message ?? 'network error'}`);
      }
      this.record(response.status, started);
      if (response.ok) return response;
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location && canRetry && redirects < MAX_REDIRECTS) {
        // GitLab redirects reads of moved projects (301). Follow only within the same forge
        // origin, so the caller's credential never goes to a host it did not name.
        const next = new URL(location, url);
        if (next.origin === new URL(this.endpoint.apiUrl).origin) {
          redirects++;
          attempt--;
          url = next.href;
          await response.body?.cancel();
          continue;
        }
      }
      if (canRetry && attempt < MAX_RETRIES && RETRYABLE_STATUS.has(response.status)) {
        const asked = retryAfterSeconds(response.headers.get('retry-after'));
        const wait = asked !== undefined ? asked * 1000 : BACKOFF_MS[attempt];
        if (Date.now() + wait < deadline) {
          await response.body?.cancel();
          await sleep(wait);
          continue;
        }
      }
      throw await failureFromResponse(response);
    }
  }

  private record(status: number | 'error', started: number): void {
    const ms = performance.now() - started;
    this.upstreamMs += ms;
    if (status !== 'error') this.lastStatus = status;
    this.endpoint.observe?.(status, ms / 1000);
  }

  /** JSON body of a successful call; null for an empty (204) answer. */
  async json<T = unknown>(request: ForgeRequest): Promise<T> {
    const response = await this.send(request);
    const text = await response.text();
    if (!text) return null as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ToolError('upstream', `the forge answered ${response.status} with a body that is not JSON`, response.status);
    }
  }

  /** One page of a list endpoint with its pagination object. */
  async list<T = unknown>(request: ForgeRequest): Promise<ListResult<T>> {
    const response = await this.send(request);
    const items = (await response.json()) as T[];
    if (!Array.isArray(items)) throw new ToolError('upstream', 'the forge answered a list request with something that is not a list', response.status);
    return { items, pagination: paginationFrom(response.headers) };
  }

  /** Every page of a list endpoint, following x-next-page (at most MAX_PAGES pages). */
  async allPages<T = unknown>(request: ForgeRequest): Promise<ListResult<T>> {
    const items: T[] = [];
    let page = 1;
    let last: Pagination | undefined;
    for (let n = 0; n < MAX_PAGES; n++) {
      const result = await this.list<T>({ ...request, query: { ...request.query, page, per_page: 100 } });
      items.push(...result.items);
      last = result.pagination;
      if (!last.next_page) break;
      page = last.next_page;
    }
    return {
      items,
      pagination: { page: 1, per_page: items.length, next_page: last?.next_page ?? null, total: last?.total ?? items.length, total_pages: 1 },
    };
  }
}
