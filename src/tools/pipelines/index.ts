// The pipelines group (opt-in, D13): pipelines, their jobs, and job logs.
import { getPipelineJobOutput } from './job-log';
import { jobTools } from './jobs';
import { pipelineTools } from './pipelines';

export const pipelineGroupTools = [...pipelineTools, ...jobTools, getPipelineJobOutput];
