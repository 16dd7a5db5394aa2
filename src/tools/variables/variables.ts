// One definition of the CI/CD variable tools for either parent: list, get, create, update and
// delete (lib/api/ci/variables.rb, lib/api/ci/group_variables.rb). Every answer passes through
// redact.ts; every write is checked by rules.ts before it is sent. A key shared by several
// environment scopes is told apart by filter.environment_scope, as GitLab's own API does (a 409
// otherwise, lib/api/helpers/variables_helpers.rb).
import { Type } from '@sinclair/typebox';
import { fillPath } from '../../forge/encode';
import { defineTool, type ToolContext, type ToolDefinition } from '../define';
import { invalidArgument } from '../errors';
import { pagination, secretText, input } from '../params';
import { refusePaidOnCommunityEdition, requireRelease } from '../tiers';
import { redactVariable, redactVariables } from './redact';
import { checkMaskedValue, KEY_PATTERN, MAX_SCOPE, MAX_VALUE } from './rules';
import { parentParam, type VariableScope } from './scope';
import { B, fields, S } from '../lean/schema-parts';

// The key fills a path segment: an identifier (D31), and its pattern leaves no room for / . or %.
const key = () =>
  Type.String({
    minLength: 1,
    maxLength: 255,
    pattern: KEY_PATTERN,
    identifier: true,
    hint: 'must be 1 to 255 letters, digits or _',
    description: 'Name: letters, digits, _',
  });
const scopeText = () => Type.String({ minLength: 1, maxLength: MAX_SCOPE });
const filter = Type.Optional(
  Type.Object({ environment_scope: scopeText() }, { additionalProperties: false, description: "Which scope's variable, when a key has several." }),
);
const includeValue = Type.Optional(Type.Boolean({ description: 'Return the value of a variable neither masked nor hidden (a secret: ask only when needed).' }));
const settings = {
  variable_type: Type.Optional(Type.Union([Type.Literal('env_var'), Type.Literal('file')], { description: 'file: the value goes in a file' })),
  protected: Type.Optional(Type.Boolean({ description: 'Protected branches and tags only' })),
  masked: Type.Optional(Type.Boolean({ description: 'Hidden in job logs: 8+ characters, one line' })),
  raw: Type.Optional(Type.Boolean({ description: 'Do not expand $VARS in the value.' })),
  environment_scope: Type.Optional({ ...scopeText(), description: 'Default *' }),
  description: Type.Optional(Type.String({ maxLength: 255 })),
};
const EDITABLE = ['value', ...Object.keys(settings)] as const;

interface VariableArgs {
  key?: string;
  value?: string;
  masked?: boolean;
  masked_and_hidden?: boolean;
  raw?: boolean;
  environment_scope?: string;
  description?: string;
  filter?: { environment_scope: string };
  include_value?: boolean;
  [name: string]: unknown;
}

interface VariableTools {
  list: ToolDefinition;
  get: ToolDefinition;
  create: ToolDefinition;
  update: ToolDefinition;
  delete: ToolDefinition;
}

export function variableTools(scope: VariableScope): VariableTools {
  const { names, noun, basePath } = scope;
  const parent = parentParam(scope);
  const many = `${basePath}/variables`;
  const one = `${many}/{key}`;
  const path = (template: string, args: VariableArgs) => fillPath(template, args as Record<string, unknown>);
  const filterQuery = (args: VariableArgs) => (args.filter ? { 'filter[environment_scope]': args.filter.environment_scope } : {});

  /** What the instance must have for these arguments: a release for newer fields, Premium for group scopes. */
  async function checkInstance(args: VariableArgs, ctx: ToolContext): Promise<void> {
    if (args.masked_and_hidden === true) await requireRelease(ctx, 'masked_and_hidden', 'hidden variables', 17, 4);
    if (args.description !== undefined) await requireRelease(ctx, 'description', 'variable descriptions', 16, 2);
    if (noun === 'group') {
      // The Community Edition declares no environment_scope for group variables and would store '*' (EE: Premium).
      await refusePaidOnCommunityEdition(ctx, [
        {
          parameter: 'environment_scope',
          used: args.environment_scope !== undefined && args.environment_scope !== '*',
          what: 'an environment scope on a group variable',
        },
        { parameter: 'filter', used: args.filter !== undefined && args.filter.environment_scope !== '*', what: 'an environment scope on a group variable' },
      ]);
    }
  }

  const list = defineTool({
    name: names.list,
    title: `List ${noun} CI/CD variables`,
    description: `List a ${noun}'s CI/CD variables: keys, scopes and flags, without values unless include_value.`,
    group: 'variables',
    mode: 'read',
    record: 'ci_variable',
    endpoint: `GET ${many}`,
    input: input({ ...parent, include_value: includeValue, ...pagination }),
    async handler(args: VariableArgs, { forge }) {
      const page = await forge.list({
        method: 'GET',
        path: path(many, args),
        query: { page: args.page as number | undefined, per_page: args.per_page as number | undefined },
      });
      return redactVariables(page, args.include_value === true);
    },
  });

  const get = defineTool({
    name: names.get,
    title: `Get ${noun} CI/CD variable`,
    description: `Get a ${noun} CI/CD variable by key, without its value unless include_value.`,
    group: 'variables',
    mode: 'read',
    record: 'ci_variable',
    endpoint: `GET ${one}`,
    input: input({ ...parent, key: key(), filter, include_value: includeValue }),
    async handler(args: VariableArgs, ctx) {
      await checkInstance(args, ctx);
      const found = await ctx.forge.json({ method: 'GET', path: path(one, args), query: filterQuery(args) });
      return redactVariable(found, args.include_value === true);
    },
  });

  const create = defineTool({
    name: names.create,
    title: `Create ${noun} CI/CD variable`,
    description: `Create a ${noun} CI/CD variable; the result never carries the value.`,
    group: 'variables',
    mode: 'write',
    endpoint: `POST ${many}`,
    input: input({
      ...parent,
      key: key(),
      value: secretText(MAX_VALUE, { description: 'Never returned by writes' }),
      ...settings,
      masked_and_hidden: Type.Optional(Type.Boolean({ description: 'Masked and never shown again, in GitLab or here (GitLab 17.4).' })),
    }),
    check: checkMaskedValue,
    async handler(args: VariableArgs, ctx) {
      await checkInstance(args, ctx);
      const { [scope.idParam]: _parent, ...body } = args;
      const created = await ctx.forge.json({ method: 'POST', path: path(many, args), body });
      return redactVariable(created, false);
    },
  });

  const update = defineTool({
    name: names.update,
    title: `Update ${noun} CI/CD variable`,
    description: `Update a ${noun} CI/CD variable's value or settings; masked_and_hidden is fixed at creation. The result never carries the value.`,
    group: 'variables',
    mode: 'write',
    idempotent: true,
    endpoint: `PUT ${one}`,
    input: input({ ...parent, key: key(), value: Type.Optional(secretText(MAX_VALUE, { description: 'Never returned by writes' })), ...settings, filter }),
    check(args: VariableArgs) {
      if (!EDITABLE.some((name) => args[name] !== undefined)) throw invalidArgument('arguments', `give at least one of ${EDITABLE.join(', ')}`);
      checkMaskedValue(args);
    },
    async handler(args: VariableArgs, ctx) {
      await checkInstance(args, ctx);
      const { [scope.idParam]: _parent, key: _key, ...body } = args;
      const updated = await ctx.forge.json({ method: 'PUT', path: path(one, args), body });
      return redactVariable(updated, false);
    },
  });

  const remove = defineTool({
    name: names.delete,
    title: `Delete ${noun} CI/CD variable`,
    description: `Delete a ${noun} CI/CD variable.`,
    group: 'variables',
    mode: 'write',
    destructive: true,
    endpoint: `DELETE ${one}`,
    output: fields({ deleted: B, key: S, environment_scope: S }),
    input: input({ ...parent, key: key(), filter }),
    async handler(args: VariableArgs, ctx) {
      await checkInstance(args, ctx);
      await ctx.forge.json({ method: 'DELETE', path: path(one, args), query: filterQuery(args) });
      return { deleted: true, key: args.key, ...(args.filter ? { environment_scope: args.filter.environment_scope } : {}) };
    },
  });

  return { list, get, create, update, delete: remove };
}
