// Pipeline variable values and the YAML given to CI lint are results and text the server handles,
// never something it logs: at debug level, the log and audit lines of these calls hold neither.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApp, type ForgeApp } from '../../src/app';
import { CI_SEED, SEED, TOKENS, ciOf, startFakeForge, type FakeForge } from '../support/fake-forge';
import { capturingLogger } from '../support/log-capture';
import { testConfig } from '../support/config';
import { connect, MCP_URL, structured } from '../support/mcp-client';

let forge: FakeForge;
let app: ForgeApp;
const log = capturingLogger();
const VALUE = 'pipeline-variable-value-7c1e9';
const YAML_SECRET = 'lint-content-secret-55ab2';

beforeAll(async () => {
  forge = await startFakeForge();
  app = createApp(testConfig(forge.apiUrl, { LOG_LEVEL: 'debug', FORGE_TOOLSETS: 'ci' }), { logger: log.logger });
});
afterAll(async () => {
  await app.close();
  await forge.stop();
});

describe('the ci group and the log', () => {
  test.each(['legacy', 'modern'] as const)("on the %s lane, a variable's value and lint YAML reach the result, never a log or audit line", async (lane) => {
    forge.reset();
    ciOf(forge.model.findProject(SEED.projectPath)!).pipelines.find((p) => p.id === CI_SEED.pipelines.featureFailed)!.variables = [
      { key: 'TOKEN_HINT', value: VALUE, variable_type: 'env_var' },
    ];
    log.lines.length = 0;
    const c = await connect(app, { 'Private-Token': TOKENS.maintainer }, MCP_URL, { lane });
    const vars = structured<{ items: { key: string; value: string }[] }>(
      await c.call('list_pipeline_variables', { project_id: SEED.projectPath, pipeline_id: CI_SEED.pipelines.featureFailed }),
    );
    expect(vars.items).toEqual([{ key: 'TOKEN_HINT', value: VALUE }]);
    structured(
      await c.call('validate_ci_lint', { project_id: SEED.projectPath, content: `build:\n  script: echo ${YAML_SECRET}\n`, include_merged_yaml: true }),
    );
    await c.close();
    const toolCalls = log.lines.filter((l) => l.includes('tool_call'));
    expect(toolCalls.length).toBeGreaterThanOrEqual(2);
    expect(log.lines.filter((l) => l.includes(VALUE) || l.includes(YAML_SECRET))).toEqual([]);
  });
});
