// CLI: bun run test/support/fake-forge/serve.ts [--port 18080] [--redirect-uri URL]
// Serves the fake forge's REST API and, on the same port, its OAuth provider with one confidential
// application registered for this server (D21), so a person can run an OAuth sign-in locally
// (docs/oauth.md: "Try it locally"). The provider approves as the seeded maintainer.
import { startFakeForge } from './index';
import { LOCAL_APP_ID, LOCAL_APP_SECRET, localOAuthApp } from './local-oauth-app';

function arg(argv: string[], name: string): string | undefined {
  const i = argv.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  return argv[i].includes('=') ? argv[i].slice(argv[i].indexOf('=') + 1) : argv[i + 1];
}

function portArg(argv: string[]): number {
  const raw = arg(argv, '--port');
  if (raw === undefined) return 18080;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`invalid --port: ${raw}`);
    process.exit(2);
  }
  return port;
}

function redirectArg(argv: string[]): string {
  const raw = arg(argv, '--redirect-uri') ?? 'http://127.0.0.1:3002/callback';
  if (!URL.canParse(raw)) {
    console.error(`invalid --redirect-uri: ${raw}`);
    process.exit(2);
  }
  return raw;
}

const argv = process.argv.slice(2);
const redirectUri = redirectArg(argv);
// Recorded requests would grow without bound during a benchmark: keep none.
const forge = await startFakeForge({ port: portArg(argv), record: false });
forge.oauth.registerApp(localOAuthApp(redirectUri));
const serverUrl = redirectUri.replace(/\/callback$/, '');
console.log(`fake forge listening on ${forge.apiUrl}`);
console.log(`OAuth application: client id ${LOCAL_APP_ID}, secret ${LOCAL_APP_SECRET}, redirect URI ${redirectUri}`);
console.log(
  `start the server with: bun run src/index.ts --streamable-http=true --port=${new URL(serverUrl).port || 80} --forge-mcp-oauth=true --mcp-server-url=${serverUrl} --forge-api-url=${forge.apiUrl} --forge-oauth-client-id=${LOCAL_APP_ID} --forge-oauth-client-secret=${LOCAL_APP_SECRET}`,
);

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void forge.stop().finally(() => process.exit(0));
  });
}
