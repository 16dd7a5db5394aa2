// CLI for benchmarks: bun run test/support/fake-forge/serve.ts --port 18080
import { startFakeForge } from './index';

function portArg(argv: string[]): number {
  const i = argv.findIndex((a) => a === '--port' || a.startsWith('--port='));
  if (i < 0) return 18080;
  const raw = argv[i].includes('=') ? argv[i].split('=')[1] : argv[i + 1];
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`invalid --port: ${raw}`);
    process.exit(2);
  }
  return port;
}

// Recorded requests would grow without bound during a benchmark: keep none.
const forge = await startFakeForge({ port: portArg(process.argv.slice(2)), record: false });
console.log(`fake forge listening on ${forge.apiUrl}`);

for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    void forge.stop().finally(() => process.exit(0));
  });
}
