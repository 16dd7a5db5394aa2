// The tools/call logic, once: run a tool for the caller of one request context, count and log its
// outcome. Used by the SDK's tools/call handler (mcp/server.ts, every lane and stdio) and by the
// plain-call path of both lanes (http/fast-tool-call.ts), so both produce the same result, metrics
// and log lines.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';
import { addAttachmentLinks } from '../downloads/attachments';
import { mintDownloadToken } from '../downloads/token';
import { ForgeClient } from '../forge/client';
import { authorityOf } from '../forge/url-parts';
import type { InstanceDirectory } from '../forge/instance';
import type { AuditSink } from '../logging/audit';
import type { Logger } from '../logging/logger';
import type { ForgeEndpoint } from '../forge/endpoint';
import type { Sealer } from '../sealing/sealer';
import type { LogBudget } from '../tools/pipelines/log-budget';
import { ProtocolError, type ToolCatalog, type ToolContextSource, type ToolOutcome } from '../tools/catalog';
import type { ToolContext, ToolDefinition } from '../tools/define';
import type { PolicyCatalogs } from './policy';
import { ToolError } from '../forge/errors';
import { errorResult } from '../tools/result';
import { TOKEN_KIND_LABEL, type TokenProfile } from '../auth/token-profile';
import { tokenWarning, type TokenWarnings } from './token-warning';
import type { RequestContext } from './request-context';
import type { Asking, Confirmations } from './confirmation';
import { ATTR, type TraceSpan } from '../tracing/span';

export interface ToolCallerDeps {
  catalog: ToolCatalog;
  /** The catalog of each request policy (D34), built from `catalog`; absent: `catalog` serves every request. */
  catalogs?: PolicyCatalogs;
  logger: Logger;
  /** Counts each call by tool and outcome (ok or an error kind). */
  onToolCall?: (tool: string, outcome: string) => void;
  /** Seals download tokens for attachment links; links are added only over HTTP. */
  sealer?: Sealer;
  /** FORGE_TOOL_TIMEOUT_MS: the budget of one whole tool call (D30). */
  toolTimeoutMs?: number;
  /** Editions and releases of the forges called (src/forge/instance.ts), shared by every call. */
  instances?: InstanceDirectory;
  /** Where the audit line of each call goes (D35): AUDIT_LOG_PATH; absent: the log, as the tool_call line. */
  audit?: AuditSink;
  /** The caller's forge username, resolved once per credential with the D7 check and remembered (D35). */
  forgeUser?: (caller: Caller, forge: ForgeEndpoint, trace?: TraceSpan) => string | undefined | Promise<string | undefined>;
  /** JOB_LOG_MEMORY_BYTES: what all job-log reads of the process hold together (D30). */
  logBudget?: LogBudget;
  /**
   * What the caller's token may do, as D7's check found it (auth/token-profile.ts), when this process
   * remembers it; no forge request (D38).
   */
  tokenProfile?: (caller: Caller, forge: ForgeEndpoint) => TokenProfile | undefined;
  /** Which credentials were told their token expires soon (once each, D38). */
  tokenWarnings?: TokenWarnings;
  /** Who the caller is, as the D7 check found it and this process remembers (whoami, issue 36). */
  forgeIdentity?: (caller: Caller, forge: ForgeEndpoint) => Record<string, unknown> | undefined;
  /** FORGE_CONFIRM_DESTRUCTIVE (D42): destructive calls wait for the user where the client can ask; absent: never asked. */
  confirmations?: Confirmations;
}

/** For answers that print a result themselves (http/fast-tool-call.ts). */
export { structuredContentJson } from '../tools/bounded-result';

export type ToolCallParams = { name?: unknown; arguments?: unknown } | undefined;

/**
 * Runs one tools/call. Tool failures are isError results; an unknown tool or a name that is not a
 * string throws a ProtocolError (-32602), a bug throws anything else (answered as -32603).
 */
export type ToolCaller = (params: ToolCallParams, context: RequestContext, asking?: Asking) => Promise<CallToolResult>;

/** Download links for a caller: `{publicBase}/downloads/attachment?…&_token=<v1.dl.…>`. */
function attachmentLinker(sealer: Sealer, caller: Caller, publicBase: string) {
  return (value: unknown, projectId: string | undefined) =>
    addAttachmentLinks(value, projectId, async (pid, ref) => {
      const token = await mintDownloadToken(sealer, { credential: caller.credential, apiUrl: caller.apiUrl, projectId: pid, ref });
      const query = new URLSearchParams({ project_id: pid, secret: ref.secret, filename: ref.filename, _token: token });
      return `${publicBase}/downloads/attachment?${query}`;
    });
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** A name of the form tool names take (the 2026-07-28 revision: 1 to 128 of these characters). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The tool as the audit line names it (D35): a name of that form as it came, anything else (a
 * megabyte of text, a sentence, a pasted secret with spaces) by its length only, as free text in
 * the arguments is; an unknown tool's name is the caller's to write.
 */
const auditedTool = (name: string) => (TOOL_NAME.test(name) ? name : { chars: name.length });

/** The catalog a request is served from: the deployment's, narrowed by the caller's policy (D34). */
export function catalogFor(deps: Pick<ToolCallerDeps, 'catalog' | 'catalogs'>, context: RequestContext | undefined): ToolCatalog {
  const policy = context?.caller.policy;
  return policy !== undefined && deps.catalogs ? deps.catalogs.for(policy) : deps.catalog;
}

/**
 * One tools/call: the forge client it makes once its arguments have passed (so
 * FORGE_TOOL_TIMEOUT_MS counts from there, D30) and what its audit line reads (D35).
 */
class ToolRun implements ToolContextSource {
  forge: ForgeClient | undefined;
  readonly started = performance.now();
  /** The call's span when tracing is on (D46): the parent of its forge requests' spans. */
  span: TraceSpan | undefined;

  constructor(
    private readonly deps: ToolCallerDeps,
    private readonly context: RequestContext,
    asking: Asking | undefined,
  ) {
    const confirmations = deps.confirmations;
    // Only where the client can ask its user (D42); the catalog asks only for destructive tools.
    if (confirmations && asking) {
      // The target's title, read with a forge client of its own: the call's budget (D30) starts once confirmed.
      const subjectOf = (tool: ToolDefinition, args: Record<string, unknown>) =>
        tool.subject &&
        (() => tool.subject!(args, new ForgeClient(context.forge, context.caller.credential, { toolTimeoutMs: deps.toolTimeoutMs, trace: this.span })));
      this.confirm = (tool, args) => confirmations.confirm(tool, args, context.caller, asking, context.requestId, subjectOf(tool, args));
    }
  }

  readonly confirm?: ToolContextSource['confirm'];

  toolContext(checkUserText: ToolContext['checkUserText'], fullResponse: boolean): ToolContext {
    const { deps, context } = this;
    const { caller, publicBase } = context;
    const instances = deps.instances;
    this.forge = new ForgeClient(context.forge, caller.credential, { toolTimeoutMs: deps.toolTimeoutMs, trace: this.span });
    return {
      forge: this.forge,
      linkAttachments: deps.sealer && publicBase ? attachmentLinker(deps.sealer, caller, publicBase) : undefined,
      instance: instances ? () => instances.lookup(context.forge, caller.credential, this.span) : undefined,
      checkUserText,
      fullResponse,
      logBudget: deps.logBudget,
      knownCaller: deps.forgeIdentity ? () => deps.forgeIdentity!(caller, context.forge) : undefined,
    };
  }

  /**
   * Writes the call's audit line: to AUDIT_LOG_PATH, else to the log as tool_call (D35). `user`:
   * the caller's forge username, or the lookup of it still running.
   */
  async audit(name: string, outcome: string, args: Record<string, unknown> | undefined, user: string | undefined | Promise<string | undefined>): Promise<void> {
    const forgeUser = user instanceof Promise ? await user.catch(() => undefined) : user;
    const { deps, context, forge } = this;
    // A token that may not read its user (a fine-grained one without "User: Read") is named by its
    // kind instead (D38); never by its scopes, never itself.
    const kind = forgeUser === undefined ? deps.tokenProfile?.(context.caller, context.forge)?.kind : undefined;
    const line = {
      request_id: context.requestId,
      session: context.caller.sessionTag,
      lane: context.lane,
      forge_user: forgeUser,
      ...(kind ? { forge_token: TOKEN_KIND_LABEL[kind] } : {}),
      forge_host: authorityOf(context.caller.apiUrl),
      tool: auditedTool(name),
      args,
      outcome,
      upstream_status: forge?.lastStatus,
      upstream_ms: forge ? round(forge.upstreamMs) : undefined,
      ms: round(performance.now() - this.started),
    };
    if (deps.audit) await deps.audit(line);
    else deps.logger.info('tool_call', line);
  }
}

/**
 * The span of one tools/call (D46), a child of the request's server span, after OpenTelemetry's
 * MCP conventions: named `tools/call <tool>` for a tool of the catalog (a name the caller made up
 * is not repeated), no argument or result, `error.type` tool_error for an isError result and the
 * outcome kind (D17) beside it.
 */
function toolSpan(parent: TraceSpan, name: string, catalog: ToolCatalog, context: RequestContext): TraceSpan {
  // An unsampled call's span is not recorded: its name and attributes are not worked out.
  if (!parent.recording) return parent.child('tools/call', 'internal');
  const known = catalog.has(name);
  return parent.child(known ? `tools/call ${name}` : 'tools/call', 'internal', {
    [ATTR.mcpMethodName]: 'tools/call',
    [ATTR.genAiOperationName]: 'execute_tool',
    [ATTR.genAiToolName]: known ? name : undefined,
    [ATTR.lane]: context.lane,
  });
}

/** A tool call's outcome on its span: `ok`, an error kind (an isError result), `protocol_error` or `error` (a bug). */
function markOutcome(span: TraceSpan, outcome: string): void {
  if (!span.recording) return;
  span.set({ [ATTR.outcome]: outcome });
  if (outcome !== 'ok') span.fail(outcome === 'protocol_error' || outcome === 'error' ? outcome : 'tool_error');
}

export function createToolCaller(deps: ToolCallerDeps): ToolCaller {
  const untraced = callTool(deps);
  return (params, context, asking) => {
    const parent = context.trace;
    if (!parent || typeof params?.name !== 'string') return untraced(params, context, asking);
    const span = toolSpan(parent, params.name, deps.catalog, context);
    return untraced(params, context, asking, span).then(
      (result) => {
        span.end();
        return result;
      },
      (error) => {
        markOutcome(span, error instanceof ProtocolError ? 'protocol_error' : 'error');
        span.end();
        throw error;
      },
    );
  };
}

function callTool(deps: ToolCallerDeps) {
  return async (params: ToolCallParams, context: RequestContext, asking?: Asking, span?: TraceSpan): Promise<CallToolResult> => {
    if (typeof params?.name !== 'string') throw new ProtocolError(-32602, 'Invalid tools/call params: name must be a string');
    const { caller } = context;
    const name = params.name;
    const run = new ToolRun(deps, context, asking);
    run.span = span;
    // An audit line is written to AUDIT_LOG_PATH, or to the log when it takes info lines (D35);
    // when neither, nothing of it is worked out.
    const auditing = deps.audit !== undefined || deps.logger.enabled('info');
    // The caller's forge username (D35): known at once after its first call, else looked up (D7's
    // check) while the tool runs, and awaited before the line is written.
    const user = auditing ? deps.forgeUser?.(caller, context.forge, span ?? context.trace) : undefined;
    // Settled here, so a lookup that fails while the tool runs is never an unhandled rejection.
    if (user instanceof Promise) user.catch(() => undefined);
    const profile = deps.tokenProfile?.(caller, context.forge);
    // A token that cannot write is refused a write tool before anything is sent (D38).
    if (profile?.canWrite === false && deps.catalog.isWrite(name)) {
      const label = TOKEN_KIND_LABEL[profile.kind ?? 'personal'];
      const result = errorResult(
        new ToolError(
          'permission',
          `${name} changes data, and this ${label} cannot: it lacks ${profile.needs ?? 'a write scope'}. Nothing was sent; use a token that may write, or the read tools.`,
        ),
      );
      deps.onToolCall?.(name, 'permission');
      if (span) markOutcome(span, 'permission');
      if (auditing) await run.audit(name, 'permission', undefined, user);
      return tokenWarning(deps, context, profile, result);
    }
    let called: ToolOutcome;
    try {
      called = await catalogFor(deps, context).call(name, params.arguments, run, auditing);
    } catch (error) {
      // A bug (or a value the result builder could not serialize): answered as a JSON-RPC
      // internal error; only its class is logged (D5). An unknown tool is the client's.
      if (!(error instanceof ProtocolError)) {
        deps.onToolCall?.(name, 'error');
        deps.logger.error('tool_call_failed', {
          request_id: context.requestId,
          session: caller.sessionTag,
          lane: context.lane,
          tool: name,
          error: (error as Error)?.name ?? typeof error,
        });
      }
      // Every call is audited, an unknown tool and a bug included (D35).
      if (auditing) await run.audit(name, error instanceof ProtocolError ? 'protocol_error' : 'error', undefined, user);
      throw error;
    }
    const { result, outcome } = called;
    deps.onToolCall?.(name, outcome);
    if (span) markOutcome(span, outcome);
    if (auditing) await run.audit(name, outcome, called.args, user);
    // A question (D42) is no tool result: it carries no warning.
    return profile?.expiresAt && outcome !== 'input_required' ? tokenWarning(deps, context, profile, result) : result;
  };
}
