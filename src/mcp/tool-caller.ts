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
import { ProtocolError, type ToolCatalog, type ToolOutcome } from '../tools/catalog';
import type { PolicyCatalogs } from './policy';
import type { RequestContext } from './request-context';

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
  forgeUser?: (caller: Caller, forge: ForgeEndpoint) => string | undefined | Promise<string | undefined>;
}

/** For answers that print a result themselves (http/fast-tool-call.ts). */
export { structuredContentJson } from '../tools/bounded-result';

export type ToolCallParams = { name?: unknown; arguments?: unknown } | undefined;

/**
 * Runs one tools/call. Tool failures are isError results; an unknown tool or a name that is not a
 * string throws a ProtocolError (-32602), a bug throws anything else (answered as -32603).
 */
export type ToolCaller = (params: ToolCallParams, context: RequestContext) => Promise<CallToolResult>;

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

export function createToolCaller(deps: ToolCallerDeps): ToolCaller {
  return async (params, context) => {
    if (typeof params?.name !== 'string') throw new ProtocolError(-32602, 'Invalid tools/call params: name must be a string');
    const { caller } = context;
    const name = params.name;
    const started = performance.now();
    let forge: ForgeClient | undefined;
    const publicBase = context.publicBase;
    let called: ToolOutcome;
    // An audit line is written to AUDIT_LOG_PATH, or to the log when it takes info lines (D35);
    // when neither, nothing of it is worked out.
    const auditing = deps.audit !== undefined || deps.logger.enabled('info');
    // The caller's forge username (D35): known at once after its first call, else looked up (D7's
    // check) while the tool runs, and awaited before the line is written.
    const user = auditing ? deps.forgeUser?.(caller, context.forge) : undefined;
    const pendingUser = user instanceof Promise ? user.catch(() => undefined) : undefined;
    const audit = (outcome: string, args?: Record<string, unknown>): void | Promise<void> =>
      !auditing ? undefined : pendingUser ? pendingUser.then((name) => writeAudit(outcome, args, name)) : writeAudit(outcome, args, user as string | undefined);
    const writeAudit = (outcome: string, args: Record<string, unknown> | undefined, forgeUser: string | undefined): void | Promise<void> => {
      const line = {
        request_id: context.requestId,
        session: caller.sessionTag,
        lane: context.lane,
        forge_user: forgeUser,
        forge_host: authorityOf(caller.apiUrl),
        tool: auditedTool(name),
        args,
        outcome,
        upstream_status: forge?.lastStatus,
        upstream_ms: forge ? round(forge.upstreamMs) : undefined,
        ms: round(performance.now() - started),
      };
      if (deps.audit) return deps.audit(line);
      deps.logger.info('tool_call', line);
    };
    try {
      called = await catalogFor(deps, context).call(name, params.arguments, () => {
        // Created once per call, so FORGE_TOOL_TIMEOUT_MS counts from here (D30).
        forge = new ForgeClient(context.forge, caller.credential, { toolTimeoutMs: deps.toolTimeoutMs });
        const instances = deps.instances;
        return {
          forge,
          linkAttachments: deps.sealer && publicBase ? attachmentLinker(deps.sealer, caller, publicBase) : undefined,
          instance: instances ? () => instances.lookup(context.forge, caller.credential) : undefined,
        };
      }, auditing);
    } catch (error) {
      // A bug (or a value the result builder could not serialize): answered as a JSON-RPC
      // internal error; only its class is logged (D5). An unknown tool is the client's.
      if (!(error instanceof ProtocolError)) {
        deps.onToolCall?.(name, 'error');
        deps.logger.error('tool_call_failed', { request_id: context.requestId, session: caller.sessionTag, lane: context.lane, tool: name, error: (error as Error)?.name ?? typeof error });
      }
      // Every call is audited, an unknown tool and a bug included (D35).
      await audit(error instanceof ProtocolError ? 'protocol_error' : 'error');
      throw error;
    }
    const { result, outcome } = called;
    deps.onToolCall?.(name, outcome);
    const audited = audit(outcome, called.args);
    if (audited) await audited;
    return result;
  };
}
