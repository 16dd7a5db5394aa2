// The one list that splits the suite into two loops (issue 35): these files start processes (the
// server, the compiled binary, redis-server, a fake forge served from the CLI), drive a browser or
// run the conformance suite, and make `bun run test:e2e`; every other *.test.ts under test/ makes
// the fast loop, `bun run test:unit`, where test/support/unit-guard.ts makes starting a process
// fail, so a file that needs one cannot sit in the wrong list unnoticed. `bun test` runs both.
// Where a new file goes: docs/contributing.md, "Tests".
export const E2E_FILES: readonly string[] = [
  'test/audit.test.ts',
  'test/binary.test.ts',
  'test/compose.test.ts',
  'test/confirmations-shared.test.ts',
  'test/container.test.ts',
  'test/fake-forge-serve.test.ts',
  'test/forge-bounds-process.test.ts',
  'test/healthcheck.test.ts',
  'test/helm.test.ts',
  'test/identifiers-process.test.ts',
  'test/modern-clients.test.ts',
  'test/oauth-browser.test.ts',
  'test/oauth-e2e.test.ts',
  'test/oauth-process.test.ts',
  'test/oauth-refresh-reuse.test.ts',
  'test/pool.test.ts',
  'test/process.test.ts',
  'test/real-clients.test.ts',
  'test/replicas-store.test.ts',
  'test/replicas.test.ts',
  'test/store-config.test.ts',
  'test/store-contract.test.ts',
  'test/store-shared-caches.test.ts',
  'test/store-tls.test.ts',
  'test/turn-batch.test.ts',
];
