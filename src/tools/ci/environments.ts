// Environments and deployments (lib/api/environments.rb, lib/api/deployments.rb): what is deployed
// where. Stopping an environment runs its on_stop job; GitLab refuses it below Developer (403).
import { Type } from '@sinclair/typebox';
import { isoDateTime, numericId, pagination, projectId, search, shortName } from '../params';
import { restTool } from '../rest';
import { invalidArgument } from '../errors';

const environmentId = () => numericId('must be a positive integer environment id such as 7', 'Environment id');
const deploymentId = () => numericId('must be a positive integer deployment id such as 7', 'Deployment id');
const ENV = '/projects/{project_id}/environments';
const DEPLOYMENTS = '/projects/{project_id}/deployments';

const listEnvironments = restTool({
  name: 'list_environments',
  title: 'List environments',
  description: "List a project's environments with their state and tier.",
  group: 'ci',
  record: 'environment',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      name: Type.Optional(shortName({ description: 'Exact name' })),
      search: search('Part of the name'),
      states: Type.Optional(Type.Union([Type.Literal('available'), Type.Literal('stopping'), Type.Literal('stopped')], { description: 'One state' })),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    // GitLab answers 400 "name, search are mutually exclusive" (lib/api/environments.rb).
    if (args.name !== undefined && args.search !== undefined) throw invalidArgument('search', 'give name or search, not both');
  },
  rest: { method: 'GET', path: ENV, list: true },
});

const getEnvironment = restTool({
  name: 'get_environment',
  title: 'Get environment',
  description: 'Get an environment: state, tier, external_url and its last deployment (ref, sha, status, job).',
  group: 'ci',
  record: 'environment',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), environment_id: environmentId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${ENV}/{environment_id}` },
});

const stopEnvironment = restTool({
  name: 'stop_environment',
  title: 'Stop environment',
  description: 'Stop an environment (runs its on_stop job).',
  group: 'ci',
  record: 'environment',
  mode: 'write',
  idempotent: true,
  input: Type.Object(
    { project_id: projectId(), environment_id: environmentId(), force: Type.Optional(Type.Boolean({ description: 'Stop without on_stop' })) },
    { additionalProperties: false },
  ),
  rest: { method: 'POST', path: `${ENV}/{environment_id}/stop` },
});

const listDeployments = restTool({
  name: 'list_deployments',
  title: 'List deployments',
  description: "List a project's deployments (environment, ref, sha, status, job).",
  group: 'ci',
  record: 'deployment',
  mode: 'read',
  input: Type.Object(
    {
      project_id: projectId(),
      environment: Type.Optional(shortName({ description: 'Environment name' })),
      status: Type.Optional(
        Type.Union(
          ['created', 'running', 'success', 'failed', 'canceled', 'skipped', 'blocked'].map((s) => Type.Literal(s)),
          { description: 'One status' },
        ),
      ),
      updated_after: Type.Optional(isoDateTime()),
      updated_before: Type.Optional(isoDateTime()),
      order_by: Type.Optional(Type.Union(['id', 'iid', 'created_at', 'updated_at', 'finished_at', 'ref'].map((s) => Type.Literal(s)))),
      sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
      ...pagination,
    },
    { additionalProperties: false },
  ),
  check(args) {
    // lib/api/deployments.rb: an updated_at filter needs updated_at order (400 otherwise; order_by defaults to id).
    if ((args.updated_after !== undefined || args.updated_before !== undefined) && args.order_by !== 'updated_at') {
      throw invalidArgument('order_by', 'must be updated_at when updated_after or updated_before is given (GitLab pairs them)');
    }
  },
  rest: { method: 'GET', path: DEPLOYMENTS, list: true },
});

const getDeployment = restTool({
  name: 'get_deployment',
  title: 'Get deployment',
  description: 'Get a deployment: environment, ref, sha, status, its job and who deployed.',
  group: 'ci',
  record: 'deployment',
  mode: 'read',
  input: Type.Object({ project_id: projectId(), deployment_id: deploymentId() }, { additionalProperties: false }),
  rest: { method: 'GET', path: `${DEPLOYMENTS}/{deployment_id}` },
});

export const environmentTools = [listEnvironments, getEnvironment, stopEnvironment, listDeployments, getDeployment];
