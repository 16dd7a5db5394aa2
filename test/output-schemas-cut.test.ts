// D41 with D33's bound: a result cut at MAX_RESULT_BYTES (a list at a whole item, a record's long
// texts shortened) still satisfies its tool's published outputSchema, `truncated` and
// `truncation` included.
import { expect, test } from 'bun:test';
import Ajv from 'ajv';
import { ALL_TOOLS, toolListing } from '../src/tools/catalog';
import { outputSchemaOf } from '../src/tools/output-schema';
import { SEED } from './support/fake-forge';
import { useHarness } from './support/harness';

const h = useHarness({ FORGE_TOOLSETS: 'all', MAX_RESULT_BYTES: '1024' });
const ajv = new Ajv({ strict: false, allErrors: true });

const P = { project_id: SEED.projectPath };
const CASES: [string, Record<string, unknown>][] = [
  ['list_commits', { ...P, per_page: 30 }],
  ['list_issues', { ...P, scope: 'all' }],
  ['get_wiki_page', { ...P, slug: 'runbook' }],
  ['get_commit_diff', { ...P, sha: SEED.diffSha }],
  ['get_branch_diffs', { ...P, from: SEED.rootSha, to: 'main' }],
  ['mr_discussions', { ...P, merge_request_iid: 1 }],
  ['get_pipeline_job_output', { ...P, job_id: 1006 }],
];

test.each(CASES)('%s, cut, satisfies its published outputSchema', async (name, args) => {
  const tool = ALL_TOOLS.find((t) => t.name === name)!;
  const client = await h.as();
  const result = await client.call(name, args);
  expect(result.isError).toBeFalsy();
  const value = result.structuredContent as Record<string, unknown>;
  expect(value.truncated).toBe(true);
  for (const schema of [toolListing(tool).outputSchema, JSON.parse(JSON.stringify(outputSchemaOf(tool)))]) {
    const validate = ajv.compile(schema as object);
    expect(validate(value) ? [] : ajv.errorsText(validate.errors)).toEqual([]);
  }
});
