// The OAuth application `bun run fake-forge` registers for trying OAuth mode locally: fixed,
// well-known values (a fake forge holds nothing worth protecting), so the recipe can be copied.
import type { FakeOAuthApp } from '../fake-oauth';

export const LOCAL_APP_ID = 'forge-mcp-local';
export const LOCAL_APP_SECRET = 'forge-mcp-local-secret';

/** A confidential application (D21) whose one redirect URI is the server's `{MCP_SERVER_URL}/callback`. */
export function localOAuthApp(redirectUri: string): FakeOAuthApp {
  return { uid: LOCAL_APP_ID, secret: LOCAL_APP_SECRET, redirectUris: [redirectUri], scopes: ['api', 'read_api'] };
}
