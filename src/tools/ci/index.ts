// The ci group (opt-in, D13): what a pipeline produced and where it went — test reports, artifacts,
// CI lint, environments and deployments, pipeline schedules and a pipeline's variables.
import { getJobArtifactFile, listJobArtifacts } from './artifacts';
import { environmentTools } from './environments';
import { validateCiLint, validateProjectCiLint } from './lint';
import { scheduleTools } from './schedules';
import { getPipelineTestReport, getPipelineTestReportSummary } from './test-report';

export const ciGroupTools = [
  getPipelineTestReport,
  getPipelineTestReportSummary,
  listJobArtifacts,
  getJobArtifactFile,
  validateCiLint,
  validateProjectCiLint,
  ...environmentTools,
  ...scheduleTools,
];
