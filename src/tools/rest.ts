// Most tools are a REST pass-through (docs/architecture.md principle 2): a method, a path template whose
// `{placeholders}` are filled from arguments, and the remaining arguments sent as the query (GET,
// DELETE) or the JSON body (POST, PUT, PATCH). `list` tools return items with pagination.
import type { Static, TObject } from '@sinclair/typebox';
import type { ForgeClient, HttpMethod } from '../forge/client';
import { fillPath, pathParameters, type QueryValue } from '../forge/encode';
import { defineTool, type ToolContext, type ToolDefinition } from './define';

export interface RestSpec {
  method: HttpMethod;
  path: string;
  /** Returns one page with a pagination object (D16). */
  list?: boolean;
  /** Argument name → the forge's parameter name, where they differ. */
  rename?: Readonly<Record<string, string>>;
  /** What to return when the forge answers with no body (204). */
  empty?: (args: Record<string, unknown>) => unknown;
}

/** The arguments that are not part of the path, under the forge's names. */
export function restParams(spec: RestSpec, args: Record<string, unknown>): Record<string, unknown> {
  const inPath = pathParameters(spec.path);
  const params: Record<string, unknown> = {};
  for (const name in args) {
    const value = args[name];
    if (value === undefined || inPath.includes(name)) continue;
    params[spec.rename?.[name] ?? name] = value;
  }
  return params;
}

export async function callRest(spec: RestSpec, args: Record<string, unknown>, forge: ForgeClient): Promise<unknown> {
  const path = fillPath(spec.path, args);
  const params = restParams(spec, args);
  const sendsBody = spec.method === 'POST' || spec.method === 'PUT' || spec.method === 'PATCH';
  const request = sendsBody ? { method: spec.method, path, body: params } : { method: spec.method, path, query: params as Record<string, QueryValue> };
  if (spec.list) return forge.list(request);
  const data = await forge.json(request);
  return data === null && spec.empty ? spec.empty(args) : data;
}

/** A tool whose whole behaviour is one REST call. */
export function restTool<S extends TObject>(definition: Omit<ToolDefinition<S>, 'handler'> & { rest: RestSpec }): ToolDefinition {
  const { rest, ...meta } = definition;
  return defineTool<S>({
    endpoint: `${rest.method} ${rest.path}`,
    ...meta,
    handler: (args: Static<S>, ctx: ToolContext) => callRest(rest, args as Record<string, unknown>, ctx.forge),
  });
}
