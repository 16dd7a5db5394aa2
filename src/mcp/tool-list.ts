// The tools/list result for the caller of a request (D29, D27): a token of this server's own that
// grants `read_api` sees only the read tools, and so does a forge token D7's check found cannot
// write (D38: the read tools of the catalog, the list X-MCP-Readonly gives); a request's policy
// (D34) has its own catalog, passed in.
// Whenever the caller holds such a token or a policy the list depends on it, so on the modern lane
// it says `cacheScope: "private"` (the SDK stamps the public
// hint of server.ts only on results without their own). Every variant is built once per catalog.
import type { Tool } from '@modelcontextprotocol/server';
import type { ToolCatalog } from '../tools/catalog';
import type { RequestContext } from './request-context';
import type { TokenProfile } from '../auth/token-profile';

/** Same lifetime as the public hint (server.ts CACHE_HINTS); only the scope differs. */
export const PRIVATE_HINT = { ttlMs: 300_000, cacheScope: 'private' } as const;

interface Lists {
  readonly full: { tools: Tool[] };
  readonly read: { tools: Tool[] };
  readonly fullPrivate: { tools: Tool[] } & typeof PRIVATE_HINT;
  readonly readPrivate: { tools: Tool[] } & typeof PRIVATE_HINT;
}

const built = new WeakMap<ToolCatalog, Lists>();

function listsOf(catalog: ToolCatalog): Lists {
  let lists = built.get(catalog);
  if (!lists) {
    const full = catalog.listResult;
    const read = catalog.readListResult;
    lists = { full, read, fullPrivate: { ...full, ...PRIVATE_HINT }, readPrivate: { ...read, ...PRIVATE_HINT } };
    built.set(catalog, lists);
  }
  return lists;
}

export function toolListFor(catalog: ToolCatalog, context: RequestContext | undefined, token?: TokenProfile): { tools: Tool[] } {
  const grant = context?.caller.grant;
  const tokenReadOnly = token?.canWrite === false;
  if (!grant && !tokenReadOnly && context?.caller.policy === undefined) return catalog.listResult;
  const lists = listsOf(catalog);
  const readOnly = grant?.scope === 'read_api' || tokenReadOnly;
  if (context?.lane === 'modern') return readOnly ? lists.readPrivate : lists.fullPrivate;
  return readOnly ? lists.read : lists.full;
}
