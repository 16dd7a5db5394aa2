// The catalog is the array of every tool plus one pure filter (docs/architecture.md principle 3). It is
// built once at start-up: validators compiled, the tools/list payload serialized, so a call does
// nothing but look up, validate and run.
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import type { ToolGroup, Toolset } from './groups';
import { DEFAULT_SET, DEFAULT_TOOLS } from './default-set';
import { closingReferences } from '../text/closing-pattern';
import { findQuickAction, quickActionProblem } from '../text/quick-actions';
import { boundedResult, restAdvice, type RestAdvice } from './bounded-result';
import { annotationsOf, hasFullResponse, type ToolContext, type ToolDefinition } from './define';
import { invalidArgument, ToolError, type ErrorKind } from './errors';
import { compileArgSummary } from './arg-summary';
import { applyLean } from './lean/apply';
import { MAX_INTEGER } from './params';
import { outputSchemaOf } from './output-schema';
import { errorResult } from './result';
import { compileValidator, type ArgumentValidator } from './validate';
import { branchTools } from './branches';
import { ciGroupTools } from './ci';
import { milestoneGroupTools } from './milestones';
import { issueTools } from './issues';
import { mergeRequestTools } from './merge-requests';
import { pipelineGroupTools } from './pipelines';
import { releaseGroupTools } from './releases';
import { repositoryTools } from './repository';
import { projectGroupTools } from './projects';
import { userGroupTools } from './users';
import { searchGroupTools } from './search';
import { labelGroupTools } from './labels';
import { wikiGroupTools } from './wiki';
import { variableGroupTools } from './variables';
import { contextTools } from './context';
import { workItemGroupTools } from './work-items';

/** A write's record with the issues its text makes GitLab close (`closes_issues`, D36), when it names any. */
function withClosingReferences(value: unknown, texts: (string | undefined)[]): unknown {
  const references = closingReferences(...texts);
  if (references.length === 0 || value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return { ...value, closes_issues: references };
}

/** Every tool the server knows, in the order tools/list shows them. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  ...milestoneGroupTools,
  ...branchTools,
  ...issueTools,
  ...mergeRequestTools,
  ...pipelineGroupTools,
  ...repositoryTools,
  ...projectGroupTools,
  ...userGroupTools,
  ...searchGroupTools,
  ...labelGroupTools,
  ...wikiGroupTools,
  ...releaseGroupTools,
  ...contextTools,
  ...variableGroupTools,
  ...ciGroupTools,
  ...workItemGroupTools,
];

export interface ToolSelection {
  /** Groups exposed whole. */
  groups: ReadonlySet<ToolGroup>;
  /** Tools exposed by name besides those groups (the default set, D40). */
  picked?: ReadonlySet<string>;
  readOnly: boolean;
  /** Only these tools, of those the groups hold (a request's policy, D34). */
  tools?: ReadonlySet<string>;
  /** Never these tools (a request's policy, D34). */
  exclude?: ReadonlySet<string>;
}

/** Whether a selection holds a tool, whatever its mode. */
function inScope(tool: ToolDefinition, selection: ToolSelection): boolean {
  return (
    (selection.groups.has(tool.group) || selection.picked?.has(tool.name) === true) &&
    (!selection.tools || selection.tools.has(tool.name)) &&
    !selection.exclude?.has(tool.name)
  );
}

/** Which tools a deployment exposes (D13): enabled groups, and only reads in read-only mode; a request's policy narrows further (D34). */
export function selectTools(all: readonly ToolDefinition[], selection: ToolSelection): ToolDefinition[] {
  return all.filter((tool) => inScope(tool, selection) && (!selection.readOnly || tool.mode === 'read'));
}

/**
 * A request's narrowing of a selection (D34), read from its headers and path (http/request-policy.ts)
 * and carried as a key (mcp/policy.ts): what it names, intersected; never anything the selection lacks.
 */
export interface Narrowing {
  /** Only tools of these groups, or of the default set (X-MCP-Toolsets, /mcp/x/{groups}; D40). */
  readonly groups?: readonly Toolset[];
  /** Only these tools (X-MCP-Tools). */
  readonly tools?: readonly string[];
  /** Not these tools (X-MCP-Exclude-Tools). */
  readonly exclude?: readonly string[];
  /** Read tools only (X-MCP-Readonly: true, /mcp/readonly). */
  readonly readOnly: boolean;
}

/** Whether a tool belongs to one of the named toolsets: its group, or the default set (D40). */
function inToolsets(tool: ToolDefinition, toolsets: readonly Toolset[]): boolean {
  return toolsets.includes(tool.group) || (toolsets.includes(DEFAULT_SET) && DEFAULT_TOOLS.has(tool.name));
}

/** `all`: every tool, so a narrowing by toolsets becomes a narrowing by tool names. */
export function narrowSelection(all: readonly ToolDefinition[], selection: ToolSelection, narrowing: Narrowing): ToolSelection {
  let tools = selection.tools;
  const keep = (name: string) => !tools || tools.has(name);
  if (narrowing.tools) tools = new Set(narrowing.tools.filter(keep));
  if (narrowing.groups) tools = new Set(all.filter((t) => keep(t.name) && inToolsets(t, narrowing.groups!)).map((t) => t.name));
  const exclude = narrowing.exclude ? new Set([...(selection.exclude ?? []), ...narrowing.exclude]) : selection.exclude;
  return { groups: selection.groups, picked: selection.picked, readOnly: selection.readOnly || narrowing.readOnly, tools, exclude };
}

/**
 * JSON Schema as clients see it, kept small (every tools/list result is read by a model): our own
 * `hint`, `identifier`, `slashName`, `userText`, `webUrl`, `secret` and `stringOrInteger` keywords and TypeBox's symbols removed, ids typed
 * `["string","integer"]` and no `format` keyword (D32), unions of constants written as
 * `enum`, and `minLength: 1`, `additionalProperties: false` and the size bounds (maxLength,
 * maxItems, maxProperties, a map's propertyNames, the safe-integer bounds) left to the server's own
 * validation, which still refuses empty strings, unknown parameters and oversized values, naming the
 * parameter and the limit.
 */
export function publicSchema(schema: unknown): Tool['inputSchema'] {
  return compact(JSON.parse(JSON.stringify(schema))) as Tool['inputSchema'];
}

function serverOnly(key: string, value: unknown): boolean {
  switch (key) {
    case 'secret':
      // The keyword (true), not a parameter called `secret` (whose value is a schema).
      return value === true;
    case 'hint':
    case 'identifier':
    case 'slashName':
    case 'userText':
    case 'stringOrInteger':
    case 'webUrl':
    case 'maxLength':
    case 'maxItems':
    case 'maxProperties':
    case 'propertyNames':
      return true;
    case 'format':
      // The keyword, not a parameter that happens to be called `format` (whose value is a schema).
      return typeof value === 'string';
    case 'minLength':
      return value === 1;
    case 'maximum':
      return value === MAX_INTEGER;
    case 'minimum':
      return value === -MAX_INTEGER;
    case 'additionalProperties':
      return value === false;
    default:
      return false;
  }
}

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  const id = (node as Record<string, unknown>).stringOrInteger === true;
  for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
    if (serverOnly(key, value)) continue;
    // An id's pattern and bounds are the server's to check; clients see only that both types are welcome (D32).
    if (id && (key === 'type' || key === 'pattern' || key === 'minimum')) continue;
    out[key] = compact(value);
  }
  if (id) out.type = ['string', 'integer'];
  const anyOf = out.anyOf as { const?: unknown; type?: string }[] | undefined;
  if (anyOf && anyOf.length > 0 && anyOf.every((s) => s.const !== undefined && s.type === anyOf[0].type)) {
    delete out.anyOf;
    return { type: anyOf[0].type, enum: anyOf.map((s) => s.const), ...out };
  }
  return out;
}

export function toolListing(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: publicSchema(tool.input),
    outputSchema: publicSchema(outputSchemaOf(tool)) as Tool['outputSchema'],
    annotations: annotationsOf(tool),
  };
}

/** A JSON-RPC error the SDK passes through with its code (no "MCP error" prefix doubling). */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A tool call's result and how it went: `ok` or the failure's kind (metrics, audit line). */
export interface ToolOutcome {
  readonly result: CallToolResult;
  /** input_required and declined: a destructive call held for its confirmation, not run (D42). */
  readonly outcome: 'ok' | ErrorKind | 'input_required' | 'declined';
  /** The audit line's argument summary (D35): ids and flags, free text as its length. */
  readonly args?: Record<string, unknown>;
}

/**
 * The result of a value built from the forge's answer. JSON.parse reads any depth, but printing it
 * recurses: an answer nested deeper than the runtime's stack is the forge's fault, a tool error
 * (D30), not a JSON-RPC internal error. Checked here, where the text is made anyway, rather than
 * by scanning every answer before it is parsed (which cost twice the parse).
 */
function resultOf(value: unknown, maxBytes: number, asSent: boolean, rest: RestAdvice, forge: ToolContext['forge']): CallToolResult {
  try {
    return boundedResult(value, maxBytes, asSent, rest);
  } catch (error) {
    if (error instanceof RangeError)
      throw new ToolError('upstream', 'the forge answered with JSON nested too deeply to pass on; it was not read', forge.lastStatus);
    throw error;
  }
}

const failed = (error: ToolError, args?: Record<string, unknown>): ToolOutcome => ({ result: errorResult(error), outcome: error.kind, args });

interface Entry {
  tool: ToolDefinition;
  validator: ArgumentValidator;
  /** full_response was added to its schema (define.ts) and is taken out before the handler runs. */
  fullResponse: boolean;
  /** The audit line's argument summary (D35). */
  summarize: (args: unknown) => Record<string, unknown>;
  /** What a result cut at MAX_RESULT_BYTES says about the rest: only parameters the tool has (D33). */
  rest: RestAdvice;
}

/** What a deployment sets for every tool call (config: MAX_RESULT_BYTES, FORGE_ALLOW_QUICK_ACTIONS). */
export interface CatalogOptions {
  /** D33: a result over this many bytes is cut at a whole item. */
  maxResultBytes?: number;
  /** D36: text parameters may hold GitLab quick actions. */
  allowQuickActions?: boolean;
}

export const DEFAULT_MAX_RESULT_BYTES = 100_000;

/** Makes the context a call runs with, given what the catalog adds to it (D36's check, full_response). */
export interface ToolContextSource {
  toolContext(checkUserText: ToolContext['checkUserText'], fullResponse: boolean): ToolContext;
  /**
   * Asks the user before a destructive tool runs (D42, mcp/confirmation.ts), with its validated
   * arguments: undefined runs it, anything else is answered instead. Absent: nothing is asked.
   */
  confirm?(tool: ToolDefinition, args: Record<string, unknown>): Promise<Pick<ToolOutcome, 'result' | 'outcome'> | undefined>;
}

export class ToolCatalog {
  readonly tools: readonly ToolDefinition[];
  /** The tools/list result, built once. */
  readonly listResult: { tools: Tool[] };
  /** The tools/list result of a caller whose token grants read_api only (D29): the read tools, built once. */
  readonly readListResult: { tools: Tool[] };
  private readonly entries = new Map<string, Entry>();
  private readonly refusedInReadOnly = new Set<string>();
  private readonly maxResultBytes: number;
  private readonly checkUserText?: (parameter: string, text: string) => void;
  /** Why a write tool of refusedInReadOnly is refused. */
  private readonly readOnlyReason: string;

  /**
   * `shared`: a catalog whose compiled entries and listings this one reuses (a request's narrowing
   * of the deployment's catalog, D34), so building one compiles nothing.
   */
  constructor(
    private readonly all: readonly ToolDefinition[],
    private readonly selection: ToolSelection,
    private readonly options: CatalogOptions = {},
    shared?: ToolCatalog,
  ) {
    this.tools = selectTools(all, selection);
    this.maxResultBytes = options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES;
    const allowQuickActions = options.allowQuickActions === true;
    if (!allowQuickActions) {
      this.checkUserText = (parameter, text) => {
        const found = findQuickAction(text);
        if (found) throw invalidArgument(parameter, quickActionProblem(found));
      };
    }
    for (const tool of this.tools) {
      const entry = shared?.entries.get(tool.name);
      this.entries.set(
        tool.name,
        entry ?? {
          tool,
          validator: compileValidator(tool.input, { allowQuickActions }),
          fullResponse: hasFullResponse(tool),
          summarize: compileArgSummary(tool.input),
          rest: restAdvice(tool),
        },
      );
    }
    if (selection.readOnly) {
      for (const tool of all) if (tool.mode === 'write' && inScope(tool, selection)) this.refusedInReadOnly.add(tool.name);
    }
    this.readOnlyReason =
      shared && !shared.selection.readOnly ? 'this request is read-only (X-MCP-Readonly or a /readonly path)' : 'this server runs in read-only mode';
    const listed = shared ? new Map(shared.tools.map((tool, i) => [tool.name, shared.listResult.tools[i]])) : undefined;
    this.listResult = { tools: this.tools.map((tool) => listed?.get(tool.name) ?? toolListing(tool)) };
    const listing = new Map(this.tools.map((tool, i) => [tool, this.listResult.tools[i]]));
    this.readListResult = { tools: this.tools.filter((tool) => tool.mode === 'read').map((tool) => listing.get(tool)!) };
  }

  /** This catalog narrowed by a request's policy (D34): its entries and listings reused, nothing widened. */
  narrow(narrowing: Narrowing): ToolCatalog {
    return new ToolCatalog(this.all, narrowSelection(this.all, this.selection, narrowing), this.options, this);
  }

  /** Whether `name` is a tool of this deployment that changes data (D29's step-up applies to it). */
  isWrite(name: string): boolean {
    return this.entries.get(name)?.tool.mode === 'write';
  }

  /** Whether `name` is a tool of this deployment that deletes or removes protection (D42 asks first). */
  isDestructive(name: string): boolean {
    return this.entries.get(name)?.tool.destructive === true;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /**
   * Validates and runs a tool. Tool failures come back as isError results with their kind as the
   * outcome; bugs are thrown. `summarize`: whether the outcome carries the audit summary (D35).
   * The context is asked for once the arguments have passed.
   */
  async call(name: string, args: unknown, context: ToolContextSource, summarize = true): Promise<ToolOutcome> {
    const entry = this.entries.get(name);
    if (!entry) {
      if (this.refusedInReadOnly.has(name)) {
        return failed(new ToolError('permission', `${name} changes data and ${this.readOnlyReason}`));
      }
      throw new ProtocolError(-32602, `Unknown tool: ${name}`);
    }
    // Of the arguments as sent, before validation; only when an audit line will carry it.
    const summary = summarize ? entry.summarize(args) : undefined;
    try {
      let valid = entry.validator.validate(args);
      entry.tool.check?.(valid as never);
      // full_response: the forge's records as they came, neither lean (D33) nor cleaned (D36).
      const full = valid.full_response === true;
      if (entry.fullResponse) {
        const { full_response: _full, ...rest } = valid;
        valid = rest;
      }
      // Before the forge client exists, so FORGE_TOOL_TIMEOUT_MS does not count the user's thinking (D30).
      if (entry.tool.destructive && context.confirm) {
        const held = await context.confirm(entry.tool, valid);
        if (held) return { ...held, args: summary };
      }
      const ctx = context.toolContext(this.checkUserText, full);
      let value = await entry.tool.handler(valid as never, ctx);
      if (!full && entry.tool.record) value = applyLean(entry.tool.record, value);
      if (entry.tool.closingText) value = withClosingReferences(value, entry.tool.closingText(valid as never));
      if (entry.tool.attachments && ctx.linkAttachments) value = await ctx.linkAttachments(value, valid.project_id as string | undefined);
      return { result: resultOf(value, this.maxResultBytes, full, entry.rest, ctx.forge), outcome: 'ok', args: summary };
    } catch (error) {
      if (error instanceof ToolError) return failed(error, summary);
      throw error;
    }
  }
}
