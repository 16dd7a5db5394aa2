// Resources, prompts and completion/complete on the SDK's Server (D44), for every lane. What is
// offered follows the request's catalog (D34: a template or prompt whose tools are not enabled is
// not listed, not read, not got, not completed); a resource is read through the caller's own
// tools/call path (the tool caller: token checks, audit line, metrics), so it is the tool's answer,
// bounds and cleaning included. resources/list is empty: the templates are the resources.
// On the modern lane the lists carry the cache hints of server.ts, `private` when a policy shaped them.
import { ProtocolError, ProtocolErrorCode, type Prompt, type ResourceTemplateType, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { keyOf } from '../auth/credential-check';
import { ForgeClient } from '../forge/client';
import { argumentProblem, offeredPrompts, type PromptDef } from '../prompts/prompts';
import { CompletionCache } from '../resources/completion-cache';
import { completeArgument, isCompletable, NO_COMPLETION, type Completion } from '../resources/completions';
import { readResource } from '../resources/read';
import { offeredTemplates, type ResourceTemplateDef } from '../resources/templates';
import type { ToolCatalog } from '../tools/catalog';
import { requestContextOf, type RequestContext } from './request-context';
import { catalogFor, type ToolCaller, type ToolCallerDeps } from './tool-caller';
import { PRIVATE_HINT, toolListFor } from './tool-list';

/** Same lifetime as the public hints of server.ts; a list a policy shaped is the caller's own. */

interface Offer {
  templates: ResourceTemplateDef[];
  prompts: PromptDef[];
  templatesList: { resourceTemplates: ResourceTemplateType[] };
  promptsList: { prompts: Prompt[] };
}

const offers = new WeakMap<ToolCatalog, Offer>();

/** What a catalog offers, built once per catalog (the deployment's, or a policy's). */
function offerOf(catalog: ToolCatalog): Offer {
  let offer = offers.get(catalog);
  if (!offer) {
    const has = (tool: string) => catalog.has(tool);
    const templates = offeredTemplates(has);
    const prompts = offeredPrompts(has);
    offer = {
      templates,
      prompts,
      templatesList: {
        resourceTemplates: templates.map((t) => ({
          name: t.name,
          title: t.title,
          uriTemplate: t.uriTemplate,
          description: t.description,
          mimeType: t.mimeType,
        })),
      },
      promptsList: {
        prompts: prompts.map((p) => ({
          name: p.name,
          title: p.title,
          description: p.description,
          arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
        })),
      },
    };
    offers.set(catalog, offer);
  }
  return offer;
}

/** A list as this request gets it: with a private hint on the modern lane when a policy shaped it. */
function listed<T extends object>(list: T, context: RequestContext | undefined): T {
  return context?.lane === 'modern' && context.caller.policy !== undefined ? { ...list, ...PRIVATE_HINT } : list;
}

export interface ResourcesDeps extends Pick<ToolCallerDeps, 'catalog' | 'catalogs' | 'toolTimeoutMs' | 'tokenProfile'> {
  /** The context of a request that comes without HTTP (stdio). */
  stdioContext?: () => RequestContext;
  /** Completion answers, one cache for every server the process builds (one per session or request). */
  completions: CompletionCache;
}

const stringsOf = (value: unknown): Record<string, string> => {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) if (typeof v === 'string') out[k] = v;
  return out;
};

export function registerResourcesAndPrompts(server: Server, deps: ResourcesDeps, toolCaller: ToolCaller): void {
  const contextOf = (ctx: ServerContext) => requestContextOf(ctx) ?? deps.stdioContext?.();
  const offerFor = (context: RequestContext | undefined) => offerOf(catalogFor(deps, context));
  const required = (context: RequestContext | undefined): RequestContext => {
    if (!context) throw new Error('a forge request without a request context: the HTTP layer must bind one');
    return context;
  };

  server.setRequestHandler('resources/list', () => ({ resources: [] }));
  server.setRequestHandler('resources/templates/list', (_request, ctx) => {
    const context = contextOf(ctx);
    return listed(offerFor(context).templatesList, context);
  });
  server.setRequestHandler('resources/read', async (request, ctx) => {
    const context = required(contextOf(ctx));
    const call = (tool: string, args: Record<string, unknown>) => toolCaller({ name: tool, arguments: args }, context);
    return readResource(request.params.uri, offerFor(context).templates, call);
  });

  server.setRequestHandler('prompts/list', (_request, ctx) => {
    const context = contextOf(ctx);
    return listed(offerFor(context).promptsList, context);
  });
  server.setRequestHandler('prompts/get', (request, ctx) => {
    const context = contextOf(ctx);
    const catalog = catalogFor(deps, context);
    const prompt = offerOf(catalog).prompts.find((p) => p.name === request.params.name);
    if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${JSON.stringify(String(request.params.name).slice(0, 128))}`);
    const given = stringsOf(request.params.arguments);
    const args: Record<string, string> = {};
    for (const arg of prompt.arguments) {
      const value = given[arg.name]?.trim();
      if (value === undefined || value === '') {
        if (arg.required) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${arg.name}: required`);
        continue;
      }
      const problem = argumentProblem(arg, value);
      if (problem) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${arg.name}: ${problem}`);
      args[arg.name] = value;
    }
    // The tools this caller sees (a read-only token or grant sees no write tools): the text names no other.
    const token = context ? deps.tokenProfile?.(context.caller, context.forge) : undefined;
    const visible = new Set(toolListFor(catalog, context, token).tools.map((t) => t.name));
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args, (tool) => visible.has(tool)) } }],
    };
  });

  server.setRequestHandler('completion/complete', async (request, ctx) => {
    const { ref, argument } = request.params;
    const found = contextOf(ctx);
    const offer = offerFor(found);
    const known =
      ref.type === 'ref/prompt'
        ? offer.prompts.some((p) => p.name === ref.name && p.arguments.some((a) => a.name === argument.name))
        : offer.templates.some((t) => t.uriTemplate === ref.uri && t.variables.includes(argument.name));
    // Nothing to suggest for an argument of no template or prompt of ours (or one not offered here).
    if (!known || !isCompletable(argument.name)) return { completion: NO_COMPLETION };
    const context = required(found);
    const others = stringsOf(request.params.context?.arguments);
    const key = CompletionCache.key(keyOf(context.caller.credential, context.forge), [argument.name, argument.value, others.project_id, others.ref]);
    let completion: Completion | undefined = deps.completions.get(key);
    if (!completion) {
      const forge = new ForgeClient(context.forge, context.caller.credential, { toolTimeoutMs: deps.toolTimeoutMs, trace: context.trace });
      completion = await completeArgument(forge, argument.name, argument.value, others);
      if (completion) deps.completions.set(key, completion);
    }
    return { completion: completion ?? NO_COMPLETION };
  });
}
