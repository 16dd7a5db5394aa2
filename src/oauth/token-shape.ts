// What a forge OAuth token or code can look like, checked before one is relayed to the forge with
// this server's application credentials: the bearer-token characters (letters, digits and
// `-._~+/`, `=` padding) and a sane length. The forge's own values (64 hex characters at GitLab)
// fit easily; junk — empty, huge, spaces, control or non-ASCII characters — is refused locally.

const MIN_TOKEN_LENGTH = 16;
const MAX_TOKEN_LENGTH = 4096;

const TOKEN = new RegExp(`^[A-Za-z0-9._~+/=-]{${MIN_TOKEN_LENGTH},${MAX_TOKEN_LENGTH}}$`);

export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

/** An error code the forge sent, fit for a log line or a page: a short word, else `invalid`. */
export function errorCode(value: string): string {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(value) ? value : 'invalid';
}
