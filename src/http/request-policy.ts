// Reads a request's policy (D34) from its headers — X-MCP-Toolsets (group ids), X-MCP-Tools,
// X-MCP-Exclude-Tools (tool names), X-MCP-Readonly: true — and its path: /mcp, /mcp/readonly,
// /mcp/x/{groups}, /mcp/x/{groups}/readonly. Path and headers combine by intersection: each only
// narrows (mcp/policy.ts, tools/catalog.ts narrowSelection). Every value is the client's to
// write, so each is bounded and checked: an unknown group or tool name, a malformed list or value
// is refused with 400 naming the header (or the path) and, shortened, the name.
import type { Toolset } from '../tools/groups';
import { TOOLSET_NAMES } from '../tools/default-set';
import { policyKey } from '../mcp/policy';
import type { Narrowing } from '../tools/catalog';
import { requestPath } from '../web/request-url';

type PolicyReading = { ok: true; key: string | undefined } | { ok: false; status: 400 | 404; message: string };

/** Longest accepted value of one policy header (characters). */
const MAX_POLICY_HEADER = 4_096;
/** Most names in one list. */
const MAX_POLICY_NAMES = 100;

const NAME = /^[a-z0-9_]{1,64}$/;
const shown = (name: string) => JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);

type Names = { ok: true; names: string[] | undefined } | { ok: false; message: string };

function names(source: string, value: string | null, known: (name: string) => boolean, what: string): Names {
  if (value === null) return { ok: true, names: undefined };
  if (value.length > MAX_POLICY_HEADER) return { ok: false, message: `${source}: longer than ${MAX_POLICY_HEADER} characters` };
  const list = value
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  if (list.length === 0) return { ok: false, message: `${source}: names no ${what}` };
  if (list.length > MAX_POLICY_NAMES) return { ok: false, message: `${source}: more than ${MAX_POLICY_NAMES} names` };
  for (const name of list) {
    if (!NAME.test(name) || !known(name)) return { ok: false, message: `${source}: unknown ${what} ${shown(name)}` };
  }
  return { ok: true, names: list };
}

function flag(source: string, value: string | null): boolean | string {
  if (value === null) return false;
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return `${source}: must be true or false`;
}

const PATH = /^\/mcp(?:\/x\/([^/]*))?(\/readonly)?\/?$/;
const NONE: PolicyReading = { ok: true, key: undefined };
const isGroup = (name: string) => TOOLSET_NAMES.has(name);

/** The policy of a request, as a catalog key (undefined: the deployment's own selection). */
export function readRequestPolicy(request: Request, isTool: (name: string) => boolean): PolicyReading {
  const path = requestPath(request.url);
  const matched = path === '/mcp' ? undefined : PATH.exec(path);
  if (path !== '/mcp' && !matched) return { ok: false, status: 404, message: 'Not Found' };
  const headers = request.headers;
  let pathGroups: string[] | undefined;
  if (matched?.[1] !== undefined) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(matched[1]);
    } catch {
      return { ok: false, status: 400, message: 'path: malformed tool group list' };
    }
    const read = names('path', decoded, isGroup, 'tool group');
    if (!read.ok) return { ok: false, status: 400, message: read.message };
    pathGroups = read.names;
  }
  const toolsetsHeader = headers.get('x-mcp-toolsets');
  const toolsHeader = headers.get('x-mcp-tools');
  const excludeHeader = headers.get('x-mcp-exclude-tools');
  const readOnlyHeader = headers.get('x-mcp-readonly');
  // Plain /mcp without a policy header, nearly every request: nothing to read.
  if (!matched && toolsetsHeader === null && toolsHeader === null && excludeHeader === null && readOnlyHeader === null) return NONE;
  const toolsets = names('X-MCP-Toolsets', toolsetsHeader, isGroup, 'tool group');
  if (!toolsets.ok) return { ok: false, status: 400, message: toolsets.message };
  const tools = names('X-MCP-Tools', toolsHeader, isTool, 'tool');
  if (!tools.ok) return { ok: false, status: 400, message: tools.message };
  const exclude = names('X-MCP-Exclude-Tools', excludeHeader, isTool, 'tool');
  if (!exclude.ok) return { ok: false, status: 400, message: exclude.message };
  const readOnly = flag('X-MCP-Readonly', readOnlyHeader);
  if (typeof readOnly === 'string') return { ok: false, status: 400, message: readOnly };
  // The path's groups and the header's both narrow: only groups named in both remain.
  const groups = pathGroups && toolsets.names ? pathGroups.filter((g) => toolsets.names!.includes(g)) : (pathGroups ?? toolsets.names);
  const policy: Narrowing = {
    groups: groups as Toolset[] | undefined,
    tools: tools.names,
    exclude: exclude.names,
    readOnly: readOnly || matched?.[2] !== undefined,
  };
  return { ok: true, key: policyKey(policy) };
}
