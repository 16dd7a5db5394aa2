// The url.full of a forge request's span (D46): the forge's origin and API path, then the request's
// path with every segment that is not a plain lowercase word of GitLab's routes (`projects`,
// `merge_requests`, `repository`) written as `{}`, and no query. Identifiers, encoded project paths,
// file paths and SHAs therefore never reach a span, nor does anything a query carries (search
// terms, filters); a lowercase single-word identifier (a branch called `main`) can.
const ROUTE_WORD = /^[a-z][a-z_]*$/;

export function tracedPath(path: string): string {
  const query = path.indexOf('?');
  const bare = query === -1 ? path : path.slice(0, query);
  return bare
    .split('/')
    .map((segment) => (segment === '' || ROUTE_WORD.test(segment) ? segment : '{}'))
    .join('/');
}
