// GET /job: the CI job a job token belongs to. GitLab answers it only for a CI job token (JOB-TOKEN
// header or job_token=); a personal or OAuth token gets 401. The seed's job token runs the first
// running job its user started; the record carries the fields GitLab's Job entity leads with.
import { json, route, unauthorized, type Ctx, type Route } from './http';
import { presentUser } from './present';

function jobToken(ctx: Ctx): string | undefined {
  const token = ctx.request.headers.get('job-token') ?? ctx.url.searchParams.get('job_token');
  return token?.trim() || undefined;
}

export const jobRoutes: Route[] = [
  route('GET', '/job', (ctx) => {
    const token = jobToken(ctx);
    if (!token || ctx.model.tokens.get(token)?.kind !== 'job') throw unauthorized();
    for (const project of ctx.model.projects.values()) {
      const job = project.statuses.find((s) => s.authorId === ctx.user.id && s.status === 'running');
      if (!job) continue;
      return json({
        id: job.id,
        status: job.status,
        stage: job.stage,
        name: job.name,
        ref: job.ref,
        tag: false,
        allow_failure: job.allow_failure,
        created_at: job.created_at,
        started_at: job.started_at,
        finished_at: job.finished_at,
        user: presentUser(ctx.model, ctx.user),
        pipeline: { id: job.pipeline_id, project_id: project.id, ref: job.ref, sha: job.sha, status: job.status },
        web_url: `${project.web_url}/-/jobs/${job.id}`,
      });
    }
    throw unauthorized(); // a job token outlives no job
  }),
];
