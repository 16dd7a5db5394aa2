// What the `listening` line says (D47): where MCP is served, which forge callers reach (or that each
// request names one, and which hosts it may name), the protocol revisions of each lane, the tool
// groups, the auth mode and whether tracing is on. Nothing secret: API URLs cannot carry
// credentials (config refuses them), allowed hosts are host names, and the tracing endpoint is
// reduced to its scheme and host.
import type { Config } from './config/load';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSION } from './http/revision';

function originOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

function authMode(config: Config): 'oauth' | 'remote' | 'static-token' {
  return config.FORGE_MCP_OAUTH ? 'oauth' : config.REMOTE_AUTHORIZATION ? 'remote' : 'static-token';
}

export function startLine(config: Config, localUrl: string, tools: number): Record<string, unknown> {
  const base = config.MCP_SERVER_URL?.replace(/\/+$/, '') ?? localUrl;
  return {
    url: localUrl,
    mcp_url: `${base}/mcp`,
    forge: config.ENABLE_DYNAMIC_API_URL ? 'per request' : config.forgeApiUrls[0],
    ...(config.ENABLE_DYNAMIC_API_URL && {
      forge_default: config.forgeApiUrls[0],
      forge_allowed: [...config.forgeApiUrls.map(originOf), ...(config.FORGE_ALLOWED_HOSTS ?? [])],
    }),
    lanes: { modern: [MODERN_PROTOCOL_VERSION], legacy: [...LEGACY_PROTOCOL_VERSIONS] },
    tool_groups: [...config.toolGroups],
    read_only: config.FORGE_READ_ONLY_MODE,
    tools,
    auth: authMode(config),
    stateless: config.OAUTH_STATELESS_MODE,
    tracing: config.tracing ? originOf(config.tracing.url) : 'off',
  };
}
