// Request recording and one-shot failure injection, shared by the served fake and in-process msw use.

export interface RecordedRequest {
  method: string;
  /** Raw pathname as received, still %-encoded, without the query string. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** Parsed JSON / form body (form as a Rack-style nested object), raw text otherwise; undefined when empty. */
  body: unknown | undefined;
}

export interface InjectedFailure {
  /** Only requests with this method (case-insensitive). */
  method?: string;
  /** Only requests whose raw (or decoded) path contains this. */
  pathIncludes?: string;
  status: number;
  /** JSON body (a string is sent as text/plain); default {"message": "<status> <reason>"}. */
  body?: unknown;
  headers?: Record<string, string>;
  /** How many matching requests fail (default 1). */
  times?: number;
}

export interface ForgeHooks {
  onRequest?(r: RecordedRequest): void;
  /** Return a failure to answer with instead of normal handling. */
  takeFailure?(r: RecordedRequest): InjectedFailure | undefined;
}

function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export class ForgeControl {
  requests: RecordedRequest[] = [];
  /** Off for long benchmark runs, where the request log would only grow. */
  record = true;
  private failures: { f: InjectedFailure; left: number }[] = [];

  failNext(f: InjectedFailure): void {
    this.failures.push({ f, left: f.times ?? 1 });
  }

  take(r: RecordedRequest): InjectedFailure | undefined {
    const i = this.failures.findIndex(
      ({ f }) =>
        (!f.method || f.method.toUpperCase() === r.method.toUpperCase()) &&
        (!f.pathIncludes || r.path.includes(f.pathIncludes) || decoded(r.path).includes(f.pathIncludes)),
    );
    if (i < 0) return undefined;
    const slot = this.failures[i];
    if (--slot.left <= 0) this.failures.splice(i, 1);
    return slot.f;
  }

  clear(): void {
    this.requests.length = 0;
    this.failures.length = 0;
  }

  readonly hooks: ForgeHooks = {
    onRequest: (r) => {
      if (this.record) this.requests.push(r);
    },
    takeFailure: (r) => this.take(r),
  };
}

const REASONS: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function failureResponse(f: InjectedFailure): Response {
  const headers = new Headers(f.headers);
  if (f.status === 204 || f.status === 304) return new Response(null, { status: f.status, headers });
  const body = f.body ?? { message: `${f.status} ${REASONS[f.status] ?? 'Error'}` };
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain');
    return new Response(body, { status: f.status, headers });
  }
  if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Response(JSON.stringify(body), { status: f.status, headers });
}
