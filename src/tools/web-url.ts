// A project named by its web URL (agents paste them): https://gitlab.example.com/group/sub/project,
// with or without a page of it after GitLab's `/-/` separator (…/-/tree/main, …/-/issues/3) or a
// `.git` suffix. Parameters that take one carry our own `webUrl` keyword (stripped from published
// schemas): the validator holds the path within the URL to the identifier rule (D31), and the tool
// checks that the URL is this forge's before it uses the path.

interface ProjectUrl {
  /** scheme://host[:port] as written. */
  origin: string;
  /** The path after the origin, without a leading or trailing slash, a `/-/…` page or `.git`. */
  path: string;
  /** The URL carried a user name or password (never repeated anywhere: D5). */
  userinfo: boolean;
}

/** The value with any user name and password of a URL in it removed (an audit line keeps the rest, D35). */
export function withoutUserinfo(value: string): string {
  return value.replace(/^(https?:\/\/)[^/?#@]*@/i, '$1');
}

/** The origin and project path of a web URL; undefined when the value is no http(s) URL. */
export function projectUrl(value: string): ProjectUrl | undefined {
  // Read from the text as written, not through URL parsing, which would resolve dot segments
  // (`/acme/%2e%2e/x` is `/x` to a browser): the identifier rule sees the path as the agent gave it.
  const m = /^(https?):\/\/([^/?#]+)([^?#]*)/i.exec(value);
  if (!m) return undefined;
  let path = m[3];
  const page = path.indexOf('/-/');
  if (page >= 0) path = path.slice(0, page);
  path = path
    .replace(/^\/+/, '')
    .replace(/\/+$/, '')
    .replace(/\.git$/i, '');
  const scheme = m[1].toLowerCase();
  const at = m[2].lastIndexOf('@');
  // The default port is no part of an origin as URL writes it.
  const host = m[2]
    .slice(at + 1)
    .toLowerCase()
    .replace(scheme === 'https' ? /:443$/ : /:80$/, '');
  return { origin: `${scheme}://${host}`, path, userinfo: at >= 0 };
}
