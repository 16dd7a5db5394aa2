// Project and group labels (lib/api/labels.rb, lib/api/group_labels.rb, lib/api/helpers/
// label_helpers.rb, app/finders/labels_finder.rb, app/models/label.rb): a project sees its own
// labels and, by default, its ancestor groups'; names are unique, hold no comma, and a colour is a
// hex code or a CSS colour name.
import type { ForgeModel, Project } from '../model';
import type { Label } from '../model-discovery';
import { ACCESS, ApiError, badRequest, json, loadProject, notFound, paramError, requireLevel, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { presentLabel, type LabelCounts } from './present-discovery';
import { groupAndDescendants, loadGroup } from './discovery-projects';

/** A few of the CSS colour names Gitlab::Color knows, as the hex code GitLab stores. */
const NAMED: Record<string, string> = {
  red: '#FF0000',
  green: '#008000',
  blue: '#0000FF',
  orange: '#FFA500',
  purple: '#800080',
  black: '#000000',
  white: '#FFFFFF',
  gray: '#808080',
};

function colour(value: string): string | undefined {
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(value)) return value;
  return NAMED[value.toLowerCase()];
}

/** Label validations: title present, no comma, at most 255; a valid colour. */
function validate(name: string | undefined, color: string | undefined): void {
  const errors: Record<string, string[]> = {};
  if (name !== undefined) {
    if (name.trim() === '') errors.title = ["can't be blank"];
    else if (name.includes(',') || name.length > 255) errors.title = ['is invalid'];
  }
  if (color !== undefined && !colour(color)) errors.color = ['must be a valid color code'];
  if (Object.keys(errors).length) throw badRequest(errors);
}

interface Visible {
  label: Label;
  kind: 'project' | 'group';
}

function projectGroupChain(m: ForgeModel, p: Project) {
  const g = p.namespace.kind === 'user' ? undefined : m.groups.get(p.namespace.id);
  return g ? m.groupChain(g) : [];
}

function visibleIn(m: ForgeModel, p: Project, ancestors: boolean): Visible[] {
  const own = m.discovery.labelsOf('project', p.id).map((label) => ({ label, kind: 'project' as const }));
  if (!ancestors) return own;
  return [...own, ...projectGroupChain(m, p).flatMap((g) => m.discovery.labelsOf('group', g.id).map((label) => ({ label, kind: 'group' as const })))];
}

function countsIn(m: ForgeModel, projects: Project[], name: string): LabelCounts {
  const issues = projects.flatMap((p) => [...p.issues.values()]).filter((i) => i.labels.includes(name));
  return {
    open_issues_count: issues.filter((i) => i.state === 'opened').length,
    closed_issues_count: issues.filter((i) => i.state === 'closed').length,
    open_merge_requests_count: 0,
  };
}

function searchFilter(ctx: Ctx) {
  const search = ctx.input.str('search')?.toLowerCase();
  return (v: Visible) => !search || v.label.name.toLowerCase().includes(search);
}

const byName = (a: Visible, b: Visible) =>
  a.label.name.toLowerCase() < b.label.name.toLowerCase() ? -1 : a.label.name.toLowerCase() > b.label.name.toLowerCase() ? 1 : a.label.id - b.label.id;

/** find_label: by id when the value is digits, else by title. */
function findIn(list: Visible[], idOrName: string): Visible | undefined {
  return /^\d+$/.test(idOrName) ? list.find((v) => v.label.id === Number(idOrName)) : list.find((v) => v.label.name === idOrName);
}

function loadLabel(ctx: Ctx, p: Project, ancestors: boolean): Visible {
  const found = findIn(visibleIn(ctx.model, p, ancestors), ctx.params.label_id);
  if (!found) throw notFound('Label');
  return found;
}

/**
 * GitLab's Labels::FindOrCreateService (app/services/issuable_base_service.rb: find_or_create_label_ids):
 * an issue or merge request naming a label neither the project nor its groups have creates it in the project.
 */
export function ensureLabels(m: ForgeModel, p: Project, names: readonly string[]): void {
  const known = new Set(visibleIn(m, p, true).map((v) => v.label.name));
  for (const name of names) {
    if (known.has(name)) continue;
    m.discovery.labelsOf('project', p.id).push({ id: m.discovery.nextLabelId++, name, color: '#6699cc', description: null, priority: null });
    known.add(name);
  }
}

export const labelRoutes: Route[] = [
  route('GET', '/projects/:id/labels', (ctx) => {
    const p = loadProject(ctx);
    const withCounts = ctx.input.bool('with_counts') === true;
    const list = visibleIn(ctx.model, p, ctx.input.bool('include_ancestor_groups') ?? true)
      .filter(searchFilter(ctx))
      .sort(byName);
    return listResponse(ctx, list, (v) => presentLabel(v.label, v.kind, withCounts ? countsIn(ctx.model, [p], v.label.name) : undefined));
  }),

  route('GET', '/projects/:id/labels/:label_id', (ctx) => {
    const p = loadProject(ctx);
    const v = loadLabel(ctx, p, ctx.input.bool('include_ancestor_groups') ?? true);
    return json(presentLabel(v.label, v.kind));
  }),

  route('POST', '/projects/:id/labels', (ctx) => {
    const p = loadProject(ctx);
    const name = ctx.input.required('name');
    const color = ctx.input.required('color');
    requireLevel(ctx, p, ACCESS.reporter);
    if (visibleIn(ctx.model, p, true).some((v) => v.label.name === name)) throw new ApiError(409, { message: 'Label already exists' });
    validate(name, color);
    const label: Label = {
      id: ctx.model.discovery.nextLabelId++,
      name,
      color: colour(color)!,
      description: ctx.input.str('description') ?? null,
      priority: ctx.input.int('priority') ?? null,
    };
    ctx.model.discovery.labelsOf('project', p.id).push(label);
    return json(presentLabel(label, 'project'), 201);
  }),

  route('PUT', '/projects/:id/labels/:label_id', (ctx) => {
    const p = loadProject(ctx);
    const newName = ctx.input.str('new_name');
    const color = ctx.input.str('color');
    const description = ctx.input.raw('description');
    const priority = ctx.input.raw('priority');
    if (newName === undefined && color === undefined && description === undefined && priority === undefined) {
      throw paramError('new_name, color, description, priority are missing, at least one parameter must be provided');
    }
    requireLevel(ctx, p, ACCESS.reporter);
    // Only the project's own labels can be changed through it (find_label with include_ancestor_groups: false).
    const { label } = loadLabel(ctx, p, false);
    validate(newName, color);
    if (newName !== undefined && newName !== label.name && visibleIn(ctx.model, p, false).some((v) => v.label.name === newName))
      throw badRequest({ title: ['has already been taken'] });
    if (newName !== undefined) {
      for (const i of p.issues.values()) i.labels = i.labels.map((n) => (n === label.name ? newName : n));
      label.name = newName;
    }
    if (color !== undefined) label.color = colour(color)!;
    if (description !== undefined) label.description = description === null ? null : String(description);
    if (priority !== undefined) label.priority = priority === null || priority === '' ? null : Number(priority);
    return json(presentLabel(label, 'project'));
  }),

  route('DELETE', '/projects/:id/labels/:label_id', (ctx) => {
    const p = loadProject(ctx);
    requireLevel(ctx, p, ACCESS.reporter);
    const { label } = loadLabel(ctx, p, false);
    const list = ctx.model.discovery.labelsOf('project', p.id);
    list.splice(list.indexOf(label), 1);
    for (const i of p.issues.values()) i.labels = i.labels.filter((n) => n !== label.name);
    return new Response(null, { status: 204 });
  }),

  route('GET', '/groups/:id/labels', (ctx) => {
    const m = ctx.model;
    const g = loadGroup(ctx);
    const withCounts = ctx.input.bool('with_counts') === true;
    const groups = [
      ...((ctx.input.bool('include_ancestor_groups') ?? true) ? m.groupChain(g) : [g]),
      ...(ctx.input.bool('include_descendant_groups') === true
        ? [...groupAndDescendants(m, g)].filter((id) => id !== g.id).map((id) => m.groups.get(id)!)
        : []),
    ];
    const list = groups
      .flatMap((x) => m.discovery.labelsOf('group', x.id).map((label) => ({ label, kind: 'group' as const })))
      .filter(searchFilter(ctx))
      .sort(byName);
    const projects = [...m.projects.values()].filter((p) => p.namespace.kind !== 'user' && groupAndDescendants(m, g).has(p.namespace.id));
    return listResponse(ctx, list, (v) => presentLabel(v.label, 'group', withCounts ? countsIn(m, projects, v.label.name) : undefined, false));
  }),
];
