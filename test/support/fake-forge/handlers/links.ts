// Issue links (related issues): list, get, create (201; 409 for an existing link), delete (200
// with the removed link, not 204). blocks / is_blocked_by need a paid tier.
import type { Issue, Project } from '../model';
import type { IssueLink } from '../model-issues';
import { ACCESS, ApiError, json, notFound, paramError, route, type Ctx, type Route } from './http';
import { canReadIssue, intParam, loadIssue } from './issue-access';
import { presentLink, presentRelated } from './present-issues';

const NO_PERMISSION = "Couldn't link issue. You must have at least the Reporter role in both projects.";

function issueOf(ctx: Ctx, ref: IssueLink['source']): { p: Project; issue: Issue } | undefined {
  const p = ctx.model.projects.get(ref.project_id);
  const issue = p?.issues.get(ref.iid);
  return p && issue && canReadIssue(ctx.model, p, issue, ctx.user.id) ? { p, issue } : undefined;
}

/** IssueLink.for_source_or_target(issue).find(id), then the far end must be readable. */
function loadLink(ctx: Ctx, issue: Issue): IssueLink {
  const id = intParam(ctx, 'issue_link_id');
  const link = ctx.model.tracker.linksOf({ project_id: issue.project_id, iid: issue.iid }).find((l) => l.id === id);
  if (!link) throw notFound();
  if (!issueOf(ctx, link.target) || !issueOf(ctx, link.source)) throw notFound('Issue');
  return link;
}

/** find_project_issue(iid, project): the target must exist and be visible. */
function loadTarget(ctx: Ctx): { p: Project; issue: Issue } {
  const projectRef = ctx.input.required('target_project_id');
  const iidRaw = ctx.input.required('target_issue_iid');
  const p = ctx.model.findProject(projectRef);
  if (!p || !ctx.model.canSee(p, ctx.user.id)) throw notFound('Project');
  const issue = /^\d+$/.test(iidRaw) ? p.issues.get(Number(iidRaw)) : undefined;
  if (!issue || !canReadIssue(ctx.model, p, issue, ctx.user.id)) throw notFound('Issue');
  return { p, issue };
}

export const linkRoutes: Route[] = [
  route('GET', '/projects/:id/issues/:issue_iid/links', (ctx) => {
    const { issue } = loadIssue(ctx);
    const visible = ctx.model.tracker.linksOf({ project_id: issue.project_id, iid: issue.iid }).filter((l) => issueOf(ctx, l.source) && issueOf(ctx, l.target));
    return json(visible.map((l) => presentRelated(ctx.model, l, issue)));
  }),

  route('GET', '/projects/:id/issues/:issue_iid/links/:issue_link_id', (ctx) => {
    const { issue } = loadIssue(ctx);
    return json(presentLink(ctx.model, loadLink(ctx, issue)));
  }),

  route('POST', '/projects/:id/issues/:issue_iid/links', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    const target = loadTarget(ctx);
    const linkType = ctx.input.oneOf('link_type', ['relates_to', 'blocks', 'is_blocked_by'] as const) ?? 'relates_to';
    if (linkType !== 'relates_to' && !ctx.model.premium) throw paramError('link_type does not have a valid value');
    const t = ctx.model.tracker;
    const source = { project_id: p.id, iid: issue.iid };
    const other = { project_id: target.p.id, iid: target.issue.iid };
    const same = (a: IssueLink['source'], b: IssueLink['source']) => a.project_id === b.project_id && a.iid === b.iid;
    const partner = (l: IssueLink) => (same(l.source, source) ? l.target : l.source);
    if (t.linksOf(source).some((l) => same(partner(l), other))) throw new ApiError(409, { message: 'Issue(s) already assigned' });
    const level = Math.min(ctx.model.accessLevel(p, ctx.user.id), ctx.model.accessLevel(target.p, ctx.user.id));
    if (level < ACCESS.reporter) throw new ApiError(403, { message: NO_PERMISSION });
    if (same(source, other)) throw new ApiError(422, { message: `#${issue.iid} cannot be added: cannot be related to itself` });
    const now = ctx.model.now();
    const inverted = linkType === 'is_blocked_by';
    const link: IssueLink = {
      id: t.nextId.link++,
      source: inverted ? other : source,
      target: inverted ? source : other,
      link_type: linkType === 'relates_to' ? 'relates_to' : 'blocks',
      created_at: now,
      updated_at: now,
    };
    t.links.push(link);
    return json(presentLink(ctx.model, link), 201);
  }),

  route('DELETE', '/projects/:id/issues/:issue_iid/links/:issue_link_id', (ctx) => {
    const { p, issue } = loadIssue(ctx);
    const link = loadLink(ctx, issue);
    if (ctx.model.accessLevel(p, ctx.user.id) < ACCESS.reporter) throw new ApiError(404, { message: 'No Issue Link found' });
    const body = presentLink(ctx.model, link);
    ctx.model.tracker.links = ctx.model.tracker.links.filter((l) => l !== link);
    return json(body);
  }),
];
