// A pipeline's test report and its summary (lib/api/ci/pipelines.rb: `test_report` presents
// TestReportEntity, `test_report_summary` TestReportSummaryEntity). The lean report leads with what
// broke: failed and errored tests first, each with its suite, name, classname, file and its failure
// message (GitLab's system_output) cut to a budget; passing tests are counted, not listed.
// full_response returns GitLab's report as it came.
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool } from '../define';
import { projectId } from '../params';
import { pipelineId } from '../pipelines/params';
import { cleanLine } from '../pipelines/log-text';
import { B, fields, I, list, N, S } from '../lean/schema-parts';

const REPORT = '/projects/{project_id}/pipelines/{pipeline_id}/test_report';
const REPORT_LIMITS = { failures: 50, message: 1_500 } as const;

type Rec = Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' ? v : 0);
const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);

/** A failure message an agent can read: escape codes gone, at most REPORT_LIMITS.message characters, its end kept (where the assertion is). */
function failureMessage(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '') return undefined;
  const text = raw.split('\n').map(cleanLine).join('\n').trim();
  if (text.length <= REPORT_LIMITS.message) return text;
  return `[… ${text.length - REPORT_LIMITS.message} characters before] ${text.slice(-REPORT_LIMITS.message)}`;
}

const TOTALS = fields({ count: N, success: N, failed: N, skipped: N, error: N, time: N });
const SUITE = fields({ name: S, count: N, failed: N, error: N, suite_error: S });

const FAILED = new Set(['failed', 'error']);

function leanReport(pipeline: number, report: Rec): Rec {
  const suites = Array.isArray(report.test_suites) ? (report.test_suites as Rec[]) : [];
  const failures: Rec[] = [];
  let failing = 0;
  for (const suite of suites) {
    for (const c of Array.isArray(suite.test_cases) ? (suite.test_cases as Rec[]) : []) {
      if (!FAILED.has(String(c.status))) continue;
      failing++;
      if (failures.length >= REPORT_LIMITS.failures) continue;
      failures.push(
        Object.fromEntries(
          Object.entries({
            suite: str(suite.name),
            name: str(c.name),
            classname: str(c.classname),
            file: str(c.file),
            status: c.status,
            message: failureMessage(c.system_output ?? c.stack_trace),
          }).filter(([, v]) => v !== undefined),
        ),
      );
    }
  }
  return {
    pipeline_id: pipeline,
    total: {
      count: num(report.total_count),
      success: num(report.success_count),
      failed: num(report.failed_count),
      skipped: num(report.skipped_count),
      error: num(report.error_count),
      time: num(report.total_time),
    },
    failed_tests: failures,
    ...(failing > failures.length
      ? { truncated: true, truncation: `${failing - failures.length} more failing tests; full_response gives the whole report` }
      : {}),
    suites: suites.map((s) => ({
      name: s.name,
      count: num(s.total_count),
      failed: num(s.failed_count),
      error: num(s.error_count),
      ...(str(s.suite_error) ? { suite_error: s.suite_error } : {}),
    })),
  };
}

export const getPipelineTestReport = defineTool({
  name: 'get_pipeline_test_report',
  title: 'Get test report',
  description: "A pipeline's unit test report: counts, then the failing tests first (suite, name, classname, file, failure message).",
  group: 'ci',
  mode: 'read',
  text: true,
  endpoint: `GET ${REPORT}`,
  output: fields({
    pipeline_id: I,
    total: TOTALS,
    failed_tests: list(fields({ suite: S, name: S, classname: S, file: S, status: S, message: S })),
    truncated: B,
    truncation: S,
    suites: list(SUITE),
  }),
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  async handler(args, { forge, fullResponse }) {
    const report = await forge.json<Rec>({ method: 'GET', path: fillPath(REPORT, args) });
    return fullResponse ? report : leanReport(Number(args.pipeline_id), report ?? {});
  },
});

export const getPipelineTestReportSummary = defineTool({
  name: 'get_pipeline_test_report_summary',
  title: 'Get test report summary',
  description: "A pipeline's test counts per suite and its jobs (build_ids), without the test cases.",
  group: 'ci',
  mode: 'read',
  text: true,
  endpoint: `GET ${REPORT}_summary`,
  output: fields({ pipeline_id: I, total: TOTALS, suites: list(fields({ ...SUITE.properties, build_ids: list(I) })) }),
  input: Type.Object({ project_id: projectId(), pipeline_id: pipelineId() }, { additionalProperties: false }),
  async handler(args, { forge, fullResponse }) {
    const summary = await forge.json<Rec>({ method: 'GET', path: fillPath(`${REPORT}_summary`, args) });
    if (fullResponse || !summary) return summary;
    const total = (summary.total ?? {}) as Rec;
    const suites = Array.isArray(summary.test_suites) ? (summary.test_suites as Rec[]) : [];
    return {
      pipeline_id: Number(args.pipeline_id),
      total: {
        count: num(total.count),
        success: num(total.success),
        failed: num(total.failed),
        skipped: num(total.skipped),
        error: num(total.error),
        time: num(total.time),
        ...(str(total.suite_error) ? { suite_error: total.suite_error } : {}),
      },
      suites: suites.map((s) => ({
        name: s.name,
        count: num(s.total_count),
        failed: num(s.failed_count),
        error: num(s.error_count),
        build_ids: s.build_ids,
        ...(str(s.suite_error) ? { suite_error: s.suite_error } : {}),
      })),
    };
  },
});
