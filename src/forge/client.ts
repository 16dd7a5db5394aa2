// Typed REST client over Bun's fetch for one caller and one forge, built once per tool call:
// sends the caller's credential in the header GitLab expects, bounds each request by
// FORGE_REQUEST_TIMEOUT_MS and the whole call by FORGE_TOOL_TIMEOUT_MS, reads bodies within
// FORGE_MAX_RESPONSE_BYTES (D30), retries reads on 429/502/503/504 or a dropped
// connection (never writes, D18), never sends a request whose path would leave the tool's endpoint
// (D31), and turns failures into ToolErrors and pagination headers into the pagination object
// (D16, D17).
import { jobTokenReaches, jobTokenRefusal } from './job-token-routes';
import { ToolError, isTimeout } from './errors';
import { BodyOverLimit, readTextWithin } from './body';
import { credentialHeader, type Credential } from './credential';
import { buildQuery, type QueryValue } from './encode';
import type { ForgeEndpoint } from './endpoint';
import { failureFromResponse, retryAfterSeconds } from './failure';
import { keepsPath } from './path-guard';
import { graphqlData, graphqlUrl, jobTokenGraphqlRefusal, type GraphqlDocument } from './graphql';
import { requestSpan, spanAnswered, spanUnanswered } from './forge-span';
import type { TraceSpan } from '../tracing/span';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ForgeRequest {
  method: HttpMethod;
  /** Path below the API URL, identifiers already encoded (see fillPath). */
  path: string;
  query?: Record<string, QueryValue>;
  body?: Record<string, unknown>;
  /**
   * Puts back what an earlier request of the same call changed (D20's restored rule): still sent
   * once the call's FORGE_TOOL_TIMEOUT_MS budget is spent, bounded by its own request timeout.
   */
  restores?: boolean;
  /**
   * The name of a GraphQL operation: the request goes to GitLab's GraphQL endpoint (`path` is
   * ignored), and its metrics carry the name (D45).
   */
  graphql?: string;
  /** A POST that only reads (a GraphQL query): retried like a GET (D18). */
  read?: boolean;
}

export interface Pagination {
  page: number | null;
  per_page: number | null;
  next_page: number | null;
  total: number | null;
  total_pages: number | null;
}

interface ListResult<T = unknown> {
  items: T[];
  pagination: Pagination;
}

/** What `stream` hands its reader: the body's chunks, one at a time. */
export interface ChunkReader {
  read(): Promise<{ done: true; value?: undefined } | { done: false; value: Uint8Array }>;
}

/** Bun's fetch, or a stand-in for it (tests; the checks at the door and OAuth's forge calls take one too). */
export type FetchLike = (input: string, init: RequestInit & Record<string, unknown>) => Promise<Response>;

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);
const MAX_RETRIES = 2;
const MAX_REDIRECTS = 3;
const BACKOFF_MS = [200, 600];
/** Safety stop for tools that walk every page (get_commit_diff with full_diff). */
const MAX_PAGES = 50;

function headerNumber(headers: Headers, name: string): number | null {
  const value = headers.get(name);
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

function paginationFrom(headers: Headers): Pagination {
  return {
    page: headerNumber(headers, 'x-page'),
    per_page: headerNumber(headers, 'x-per-page'),
    next_page: headerNumber(headers, 'x-next-page'),
    total: headerNumber(headers, 'x-total'),
    total_pages: headerNumber(headers, 'x-total-pages'),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ForgeClientOptions {
  /** FORGE_TOOL_TIMEOUT_MS: the budget of the whole call, counted from the client's creation. */
  toolTimeoutMs?: number;
  fetch?: FetchLike;
  /** The tool call's span when tracing is on (D46): each request to the forge is a client span below it. */
  trace?: TraceSpan;
}

/** Which limit a request's abort signal stands for, so a timeout names the right setting. */
type Budget = 'request' | 'call';

interface Exchange {
  response: Response;
  budget: Budget;
  /** The exchange's deadline timer, cleared once its body is read (it would otherwise live on). */
  timer: ReturnType<typeof setTimeout>;
}

/**
 * An abort signal that fires after `ms`, like AbortSignal.timeout, but whose timer can be cleared
 * as soon as the answer is read: at a few thousand calls a second, timers left to run out their
 * FORGE_REQUEST_TIMEOUT_MS pile up by the hundred thousand in the runtime's timer heap.
 */
function deadlineSignal(ms: number): { signal: AbortSignal; timer: ReturnType<typeof setTimeout> } {
  const controller = new AbortController();
  // The controller goes to the timer as its argument: no closure per request.
  return { signal: controller.signal, timer: setTimeout(abortAtDeadline, ms, controller) };
}

function abortAtDeadline(controller: AbortController): void {
  controller.abort(new DOMException('The operation timed out.', 'TimeoutError'));
}

export class ForgeClient {
  private readonly authHeader: [string, string];
  /** A CI job token reaches only some endpoints (job-token-routes.ts, D38). */
  private readonly jobToken: boolean;
  private readonly fetchImpl: FetchLike;
  private readonly toolTimeoutMs: number | undefined;
  /** Epoch ms by which the whole call must end (D30); Infinity without a budget. */
  private readonly callDeadline: number;
  private readonly trace: TraceSpan | undefined;
  /** Status of the last upstream answer and time spent upstream, for the tool_call log line. */
  lastStatus: number | undefined;
  upstreamMs = 0;

  constructor(
    readonly endpoint: ForgeEndpoint,
    credential: Credential,
    options: ForgeClientOptions = {},
  ) {
    this.authHeader = credentialHeader(credential);
    this.jobToken = credential.kind === 'job';
    this.fetchImpl = options.fetch ?? (fetch as unknown as FetchLike);
    this.toolTimeoutMs = options.toolTimeoutMs;
    this.callDeadline = options.toolTimeoutMs === undefined ? Infinity : Date.now() + options.toolTimeoutMs;
    this.trace = options.trace;
  }

  /** Sends the request and returns the successful response; throws ToolError otherwise. */
  async send(request: ForgeRequest): Promise<Response> {
    return (await this.exchange(request)).response;
  }

  private timeoutError(budget: Budget): ToolError {
    return budget === 'call'
      ? new ToolError('timeout', `the tool call did not finish within FORGE_TOOL_TIMEOUT_MS (${this.toolTimeoutMs} ms)`)
      : new ToolError('timeout', `the forge did not answer within FORGE_REQUEST_TIMEOUT_MS (${this.endpoint.timeoutMs} ms)`);
  }

  private async exchange(request: ForgeRequest): Promise<Exchange> {
    const operation = request.graphql;
    let url: string;
    if (operation !== undefined) {
      // GitLab takes job tokens on no GraphQL request (graphql_controller.rb authenticates for :graphql_api).
      if (this.jobToken) throw jobTokenGraphqlRefusal();
      url = graphqlUrl(this.endpoint.apiUrl);
    } else {
      url = `${this.endpoint.apiUrl}${request.path}${request.query ? buildQuery(request.query) : ''}`;
      // D31, in depth: the runtime collapses dot segments (`..`, `%2e%2e`, …) and reads `\` as `/`;
      // a path that would come out different from the tool's template is never sent.
      if (!keepsPath(url, this.endpoint.apiPath, request.path)) {
        throw new ToolError('validation', 'a path parameter would change the endpoint this tool calls (a `.` or `..` segment); nothing was sent');
      }
      if (this.jobToken && !jobTokenReaches(request.method, request.path)) throw jobTokenRefusal(request.method, request.path);
    }
    const headers: Record<string, string> = { Accept: 'application/json', [this.authHeader[0]]: this.authHeader[1] };
    let body: string | undefined;
    if (request.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.body);
    }
    const canRetry = request.method === 'GET' || request.read === true;
    const callDeadline = request.restores ? Infinity : this.callDeadline;
    const requestDeadline = Date.now() + this.endpoint.timeoutMs;
    const budget: Budget = callDeadline < requestDeadline ? 'call' : 'request';
    const deadline = Math.min(callDeadline, requestDeadline);
    let redirects = 0;
    for (let attempt = 0; ; attempt++) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw this.timeoutError(budget);
      let response: Response;
      const started = performance.now();
      const timer = deadlineSignal(remaining);
      const span = this.trace ? requestSpan(this.trace, this.endpoint, request.method, url, attempt, headers) : undefined;
      try {
        // The signal also ends the body's reading: a body still arriving at the deadline fails.
        response = await this.fetchImpl(url, {
          method: request.method,
          headers,
          body,
          signal: timer.signal,
          redirect: 'manual',
          ...this.endpoint.fetchOptions,
        });
      } catch (error) {
        clearTimeout(timer.timer);
        this.record('error', started, operation);
        if (span) spanUnanswered(span, error);
        if (isTimeout(error)) throw this.timeoutError(budget);
        if (canRetry && attempt < MAX_RETRIES && Date.now() + BACKOFF_MS[attempt] < deadline) {
          await sleep(BACKOFF_MS[attempt]);
          continue;
        }
        throw new ToolError('upstream', `the forge could not be reached: ${(error as Error)?.message ?? 'network error'}`);
      }
      this.record(response.status, started, operation);
      if (span) spanAnswered(span, response.status);
      if (response.ok) return { response, budget, timer: timer.timer };
      const location = response.status >= 300 && response.status < 400 ? response.headers.get('location') : null;
      if (location && canRetry && redirects < MAX_REDIRECTS) {
        // GitLab redirects reads of moved projects (301). Follow only within the same forge
        // origin, so the caller's credential never goes to a host it did not name.
        const next = new URL(location, url);
        if (next.origin === this.endpoint.origin) {
          redirects++;
          attempt--;
          url = next.href;
          clearTimeout(timer.timer);
          response.body?.cancel().catch(() => {});
          continue;
        }
      }
      if (canRetry && attempt < MAX_RETRIES && RETRYABLE_STATUS.has(response.status)) {
        const asked = retryAfterSeconds(response.headers.get('retry-after'));
        const wait = asked !== undefined ? asked * 1000 : BACKOFF_MS[attempt];
        if (Date.now() + wait < deadline) {
          clearTimeout(timer.timer);
          response.body?.cancel().catch(() => {});
          await sleep(wait);
          continue;
        }
      }
      try {
        throw await failureFromResponse(response);
      } finally {
        clearTimeout(timer.timer);
      }
    }
  }

  private record(status: number | 'error', started: number, operation?: string): void {
    const ms = performance.now() - started;
    this.upstreamMs += ms;
    if (status !== 'error') this.lastStatus = status;
    this.endpoint.observe?.(status, ms / 1000, operation);
  }

  /** The ToolError for a body that could not be read within FORGE_MAX_RESPONSE_BYTES and the exchange's deadline (D30). */
  private bodyError(error: unknown, { response, budget }: Exchange): ToolError {
    if (error instanceof BodyOverLimit) {
      const declared = error.declared === undefined ? '' : ` (it declared ${error.declared})`;
      return new ToolError(
        'upstream',
        `the forge's answer is larger than FORGE_MAX_RESPONSE_BYTES (${error.limit} bytes)${declared}; it was abandoned`,
        response.status,
      );
    }
    if (isTimeout(error)) return this.timeoutError(budget);
    const code = (error as { code?: unknown } | undefined)?.code;
    return new ToolError('upstream', `the forge's answer was cut off before its end (${typeof code === 'string' ? code : 'connection lost'})`, response.status);
  }

  /** The body of a successful answer, read within FORGE_MAX_RESPONSE_BYTES and the call's deadline (D30). */
  private async bodyText(exchange: Exchange): Promise<string> {
    try {
      return await readTextWithin(exchange.response, this.endpoint.maxResponseBytes);
    } catch (error) {
      throw this.bodyError(error, exchange);
    } finally {
      clearTimeout(exchange.timer);
    }
  }

  /** JSON body of a successful call; null for an empty (204) answer. */
  async json<T = unknown>(request: ForgeRequest): Promise<T> {
    const exchange = await this.exchange(request);
    const text = await this.bodyText(exchange);
    if (!text) return null as T;
    return parseJson<T>(text, exchange.response.status);
  }

  /**
   * The `data` of a GraphQL document sent with its variables (D45): the same credential, deadline,
   * retries (queries only) and FORGE_MAX_RESPONSE_BYTES as REST; `errors[]`, with or without data,
   * is a ToolError of the kind GitLab's words say (graphql.ts).
   */
  async graphql<T = unknown>(document: GraphqlDocument, variables: Record<string, unknown>): Promise<T> {
    const exchange = await this.exchange({
      method: 'POST',
      path: '',
      graphql: document.operation,
      read: !document.mutation,
      body: { query: document.text, operationName: document.operation, variables },
    });
    return graphqlData<T>(await this.bodyText(exchange), exchange.response.status);
  }

  /**
   * Hands the body of a successful answer to `read` as a stream, for answers of which only a bounded
   * part is kept (a job log's last lines or a line range). FORGE_MAX_RESPONSE_BYTES bounds what is
   * held in memory (D30), and `read` holds a bounded part, so the body may pass that size; the
   * request's deadline still ends the reading (`timeout`). Once `read` returns, or fails, the rest
   * of the body is abandoned unread.
   */
  async stream<T>(request: ForgeRequest, read: (reader: ChunkReader) => Promise<T>): Promise<T> {
    const exchange = await this.exchange(request);
    const body = exchange.response.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    const reader = body.getReader();
    try {
      return await read(reader);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw this.bodyError(error, exchange);
    } finally {
      clearTimeout(exchange.timer);
      reader.cancel().catch(() => {});
    }
  }

  /** One page of a list endpoint with its pagination object. */
  async list<T = unknown>(request: ForgeRequest): Promise<ListResult<T>> {
    return (await this.page<T>(request)).result;
  }

  private async page<T>(request: ForgeRequest): Promise<{ result: ListResult<T>; length: number }> {
    const exchange = await this.exchange(request);
    const text = await this.bodyText(exchange);
    const items = parseJson<T[]>(text, exchange.response.status);
    if (!Array.isArray(items)) throw new ToolError('upstream', 'the forge answered a list request with something that is not a list', exchange.response.status);
    return { result: { items, pagination: paginationFrom(exchange.response.headers) }, length: text.length };
  }

  /**
   * Every page of a list endpoint, following x-next-page. Safety stops: at most MAX_PAGES pages, and
   * no further page once the pages read hold FORGE_MAX_RESPONSE_BYTES (D30 bounds the walk's memory
   * as it bounds one answer's); next_page then says where the rest starts.
   */
  async allPages<T = unknown>(request: ForgeRequest): Promise<ListResult<T>> {
    const items: T[] = [];
    let page = 1;
    let read = 0;
    let last: Pagination | undefined;
    for (let n = 0; n < MAX_PAGES && read < this.endpoint.maxResponseBytes; n++) {
      const { result, length } = await this.page<T>({ ...request, query: { ...request.query, page, per_page: 100 } });
      // One by one: spreading a hostile page of millions of items would overflow the call stack.
      for (const item of result.items) items.push(item);
      read += length;
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

function parseJson<T>(text: string, status: number): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ToolError('upstream', `the forge answered ${status} with a body that is not JSON`, status);
  }
}
