// The probe behind `forge-mcp --healthcheck`. Distroless images have no shell or curl, so the
// container's HEALTHCHECK runs the binary itself against the server it started in the same
// container; 127.0.0.1 reaches it whether HOST is 127.0.0.1 or 0.0.0.0.

/** Undefined when GET /healthz answers 200 within timeoutMs, else what went wrong (for the log). */
export async function healthProblem(port: number, timeoutMs = 2000): Promise<string | undefined> {
  const url = `http://127.0.0.1:${port}/healthz`;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
    await response.body?.cancel();
    return response.status === 200 ? undefined : `${url} answered ${response.status}`;
  } catch (error) {
    const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : (error as Error).message;
    return `${url}: ${reason}`;
  }
}
