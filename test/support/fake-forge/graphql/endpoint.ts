// POST /api/graphql of the fake forge (issue 39), as app/controllers/graphql_controller.rb answers:
// 401 {"errors":[{"message":"Invalid token"}]} for a token it does not know; a job token is not read
// (the request is anonymous); 422 "Query too large" past 10,000 characters; then graphql-ruby's
// validation (in its words and codes), the complexity and depth limits (limits.ts), and execution — all answered 200 with
// `errors[]` when they fail, beside whatever `data` was resolved.
import { execute, type GraphQLError, Kind, parse, validate, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { failureResponse, type ForgeHooks, type RecordedRequest } from '../control';
import { json } from '../handlers/http';
import type { ForgeModel, User } from '../model';
import { costOf } from './limits';
import { rootFor } from './resolvers';
import { schemaFor } from './schema';

const MAX_QUERY_SIZE = 10_000;

const errors = (status: number, ...messages: string[]) => json({ errors: messages.map((message) => ({ message })) }, status);

/**
 * A validation error as graphql-ruby words it (GitLab's executor), with its extension code, from the
 * graphql package's wording: an unknown field, an unknown fragment type, an argument the field does
 * not take. Others pass through as the package says them.
 */
function asGitlabSays(e: GraphQLError): object {
  const field = /^Cannot query field "(\w+)" on type "(\w+)"/.exec(e.message);
  if (field)
    return {
      message: `Field '${field[1]}' doesn't exist on type '${field[2]}'`,
      extensions: { code: 'undefinedField', typeName: field[2], fieldName: field[1] },
    };
  const type = /^Unknown type "(\w+)"/.exec(e.message);
  if (type) return { message: `No such type ${type[1]}, so it can't be a fragment condition`, extensions: { code: 'undefinedType', typeName: type[1] } };
  const argument = /^Unknown argument "(\w+)" on field "\w+\.(\w+)"/.exec(e.message);
  if (argument) {
    return {
      message: `Field '${argument[2]}' doesn't accept argument '${argument[1]}'`,
      extensions: { code: 'argumentNotAccepted', name: argument[2], typeName: 'Field', argumentName: argument[1] },
    };
  }
  return e.toJSON();
}

function caller(model: ForgeModel, request: Request): User | null | 'invalid' {
  const h = request.headers;
  const bearer = /^Bearer\s+(.+)$/i.exec(h.get('authorization') ?? '')?.[1];
  const token = h.get('private-token') ?? bearer;
  if (!token) return null;
  const info = model.tokens.get(token.trim());
  if (!info || info.kind === 'job') return 'invalid';
  return model.users.get(info.userId) ?? 'invalid';
}

export async function handleGraphql(request: Request, model: ForgeModel, hooks: ForgeHooks = {}): Promise<Response> {
  const text = await request.text();
  let body: { query?: unknown; variables?: unknown; operationName?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // graphql_controller.rb reads no query: an empty document.
  }
  const rec: RecordedRequest = {
    method: request.method,
    path: new URL(request.url).pathname,
    query: new URLSearchParams(),
    headers: new Headers(request.headers),
    body,
  };
  hooks.onRequest?.(rec);
  const failure = hooks.takeFailure?.(rec);
  if (failure) return failureResponse(failure);
  if (request.method !== 'POST') return json({ errors: [{ message: 'Not found!' }] }, 404);

  const user = caller(model, request);
  if (user === 'invalid') return errors(401, 'Invalid token');
  const query = typeof body.query === 'string' ? body.query : '';
  if (query.length > MAX_QUERY_SIZE) return errors(422, 'Query too large');
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (e) {
    return errors(200, (e as GraphQLError).message);
  }
  const schema = schemaFor(model);
  const invalid = validate(schema, document);
  if (invalid.length) return json({ errors: invalid.slice(0, 5).map(asGitlabSays) });
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION && (body.operationName == null || d.name?.value === body.operationName),
  );
  if (!operation) return errors(200, 'An operation name is required');
  const { complexity, depth } = costOf(document, operation);
  if (depth > model.graphqlLimits.depth) return errors(200, `Query has depth of ${depth}, which exceeds max depth of ${model.graphqlLimits.depth}`);
  if (complexity > model.graphqlLimits.complexity) {
    return errors(200, `Query has complexity of ${complexity}, which exceeds max complexity of ${model.graphqlLimits.complexity}`);
  }
  if (operation.operation === 'mutation' && !user)
    return errors(200, "The resource that you are attempting to access does not exist or you don't have permission to perform this action");
  const variables = body.variables && typeof body.variables === 'object' ? (body.variables as Record<string, unknown>) : {};
  const result = await execute({
    schema,
    document,
    rootValue: rootFor({ model, user }),
    variableValues: variables,
    operationName: operation.name?.value,
  });
  return json({ ...(result.errors ? { errors: result.errors.map((e) => e.toJSON()) } : {}), data: result.data ?? null });
}
