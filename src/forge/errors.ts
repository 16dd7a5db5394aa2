// The kinds of tool failure an agent can act on (D17). The forge client and the tool
// handlers throw ToolError; anything else thrown is a bug and surfaces as a JSON-RPC internal
// error. It lives here, in the lowest layer that throws it, so forge/ imports nothing from tools/.
const ERROR_KINDS = ['validation', 'not_found', 'permission', 'conflict', 'rate_limited', 'upstream', 'timeout', 'mismatch'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class ToolError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** Upstream HTTP status, when the failure came from the forge. */
    readonly status: number | null = null,
    /** Seconds the forge asked us to wait (429 Retry-After). */
    readonly retryAfter?: number,
  ) {
    super(message);
  }
}

/** Whether a failed fetch ran out of time (its deadline's signal, or an abort). */
export const isTimeout = (error: unknown): boolean => {
  const name = (error as Error | undefined)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
};
