// Project and group CI/CD variables (lib/api/ci/variables.rb, lib/api/ci/group_variables.rb):
// list, get, create, update, delete. Project variables need Maintainer (admin_build /
// admin_cicd_variables, app/policies/project_policy.rb), group variables Owner
// (app/policies/group_policy.rb). A key shared by several scopes without filter[environment_scope]
// is 409 (lib/api/helpers/variables_helpers.rb). Values are checked as app/models/concerns/ci/maskable.rb
// and has_variable.rb do. masked_and_hidden and the `hidden` field exist from 17.4, `description`
// from 16.2. A hidden variable's value is presented as null. Group environment scopes are a paid
// feature: without it GitLab drops the parameter and stores '*'.
import { atLeast, paidTier } from '../edition';
import { ACCESS, type Group, type Project } from '../model';
import { variablesOf, type CiVariable } from '../model-variables';
import { ApiError, forbidden, json, loadProject, notFound, route, type Ctx, type Route } from './http';
import { listResponse } from './paginate';
import { groupParent } from './milestone-parent';

const MASKED = /^[a-zA-Z0-9_+=/@:.~-]{8,}$/;
const MASKED_RAW = /^\S{8,}$/;

interface Owner {
  owner: Project | Group;
  noun: 'Variable' | 'GroupVariable';
  group: boolean;
}

function projectOwner(ctx: Ctx): Owner {
  const project = loadProject(ctx);
  if (ctx.model.accessLevel(project, ctx.user.id) < ACCESS.maintainer) throw forbidden();
  return { owner: project, noun: 'Variable', group: false };
}

function groupOwner(ctx: Ctx): Owner {
  const parent = groupParent(ctx);
  if (parent.level < ACCESS.owner) throw forbidden();
  return { owner: parent.group!, noun: 'GroupVariable', group: true };
}

function present(ctx: Ctx, v: CiVariable): Record<string, unknown> {
  const m = ctx.model;
  return {
    variable_type: v.variable_type,
    key: v.key,
    value: v.hidden ? null : v.value,
    protected: v.protected,
    masked: v.masked,
    ...(atLeast(m, 17, 4) ? { hidden: v.hidden } : {}),
    raw: v.raw,
    environment_scope: v.environment_scope,
    ...(atLeast(m, 16, 2) ? { description: v.description } : {}),
  };
}

const validationError = (field: string, message: string) => new ApiError(400, { message: { [field]: [message] } });

/** Ci::VariablesFinder, then find_variable: one, none (404) or several (409). */
function find(ctx: Ctx, o: Owner): CiVariable {
  const scope = ctx.input.str('filter.environment_scope');
  const found = variablesOf(o.owner).filter((v) => v.key === ctx.params.key && (scope === undefined || v.environment_scope === scope));
  if (found.length > 1) throw new ApiError(409, { message: "There are multiple variables with provided parameters. Please use 'filter[environment_scope]'" });
  if (found.length === 0) throw notFound(o.noun);
  return found[0];
}

/** `others`: the owner's other variables, which may not share the key and scope. */
function validate(v: CiVariable, others: CiVariable[]): void {
  if (v.key.length > 255) throw validationError('key', 'is too long (maximum is 255 characters)');
  if (!/^[a-zA-Z0-9_]+$/.test(v.key)) throw validationError('key', "can contain only letters, digits and '_'.");
  if (v.masked && !(v.raw ? MASKED_RAW : MASKED).test(v.value)) throw validationError('value', 'is invalid');
  if (v.value.length > 10_000) throw validationError('value', 'is too long (maximum is 10000 characters)');
  if (others.some((x) => x.key === v.key && x.environment_scope === v.environment_scope)) {
    throw validationError('key', `(${v.key}) has already been taken`);
  }
}

const boolOf = (ctx: Ctx, name: string) => ctx.input.bool(name);

/** The settings a write may carry, as declared for this owner, edition and release. */
function settings(ctx: Ctx, o: Owner): Partial<CiVariable> {
  const out: Partial<CiVariable> = {};
  const type = ctx.input.oneOf('variable_type', ['env_var', 'file'] as const);
  if (type) out.variable_type = type;
  for (const name of ['protected', 'masked', 'raw'] as const) {
    const b = boolOf(ctx, name);
    if (b !== undefined) out[name] = b;
  }
  const scope = ctx.input.str('environment_scope');
  // Group scopes: declared by EE code and kept only with the paid feature (filter_variable_parameters).
  if (scope !== undefined && (!o.group || paidTier(ctx.model))) out.environment_scope = scope;
  if (atLeast(ctx.model, 16, 2) && ctx.input.has('description')) out.description = ctx.input.str('description') ?? null;
  const value = ctx.input.str('value');
  if (value !== undefined) out.value = value;
  return out;
}

function list(ctx: Ctx, load: (ctx: Ctx) => Owner): Response {
  const o = load(ctx);
  return listResponse(ctx, variablesOf(o.owner), (v) => present(ctx, v));
}

function get(ctx: Ctx, load: (ctx: Ctx) => Owner): Response {
  const o = load(ctx);
  return json(present(ctx, find(ctx, o)));
}

function create(ctx: Ctx, load: (ctx: Ctx) => Owner): Response {
  const key = ctx.input.required('key');
  const value = ctx.input.required('value');
  const hidden = atLeast(ctx.model, 17, 4) ? (boolOf(ctx, 'masked_and_hidden') ?? false) : false;
  const o = load(ctx);
  const v: CiVariable = {
    key,
    value,
    variable_type: 'env_var',
    protected: false,
    masked: false,
    hidden,
    raw: false,
    environment_scope: '*',
    description: null,
    ...settings(ctx, o),
  };
  if (hidden) v.masked = true;
  const all = variablesOf(o.owner);
  validate(v, all);
  all.push(v);
  return json(present(ctx, v), 201);
}

function update(ctx: Ctx, load: (ctx: Ctx) => Owner): Response {
  const o = load(ctx);
  const v = find(ctx, o);
  const changed = { ...v, ...settings(ctx, o) };
  // A hidden variable stays masked and hidden (Ci::ChangeVariableService refuses to unmask it).
  if (v.hidden && changed.masked === false) throw validationError('masked', 'cannot be unset for a hidden variable');
  validate(
    changed,
    variablesOf(o.owner).filter((x) => x !== v),
  );
  Object.assign(v, changed);
  return json(present(ctx, v));
}

function remove(ctx: Ctx, load: (ctx: Ctx) => Owner): Response {
  const o = load(ctx);
  const v = find(ctx, o);
  const all = variablesOf(o.owner);
  all.splice(all.indexOf(v), 1);
  return new Response(null, { status: 204 });
}

const routesFor = (base: string, load: (ctx: Ctx) => Owner): Route[] => [
  route('GET', `${base}/variables`, (ctx) => list(ctx, load)),
  route('GET', `${base}/variables/:key`, (ctx) => get(ctx, load)),
  route('POST', `${base}/variables`, (ctx) => create(ctx, load)),
  route('PUT', `${base}/variables/:key`, (ctx) => update(ctx, load)),
  route('DELETE', `${base}/variables/:key`, (ctx) => remove(ctx, load)),
];

export const variableRoutes: Route[] = [...routesFor('projects/:id', projectOwner), ...routesFor('groups/:id', groupOwner)];
