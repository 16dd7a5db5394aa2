// The shape of a tool: one literal holds its name, title, description, group, mode, input schema
// and handler (docs/architecture.md principle 1). Annotations are derived from the mode, never listed
// apart, so a tool's name is spelled in exactly one place.
import { Type, type Static, type TObject } from '@sinclair/typebox';
import type { ToolGroup } from './groups';
import type { ForgeClient } from '../forge/client';
import type { RecordKindName } from './lean';
import type { InstanceInfo } from '../forge/instance';
import type { LogBudget } from './pipelines/log-budget';

export interface ToolContext {
  /** REST client bound to the caller's credential and chosen forge. */
  readonly forge: ForgeClient;
  /** Adds download links beside attachment links in a result (absent when no public URL is known). */
  readonly linkAttachments?: (value: unknown, projectId: string | undefined) => Promise<unknown>;
  /**
   * Refuses text GitLab would run as quick actions (D36), naming `parameter`, unless the deployment
   * allows them; for text a handler builds itself (a patched description). Parameters declared with
   * userText() (params.ts) are checked before the handler runs. Absent: nothing is checked.
   */
  readonly checkUserText?: (parameter: string, text: string) => void;
  /** The caller asked for full_response: a `text` tool (define.ts) returns the forge's text uncleaned. */
  readonly fullResponse?: boolean;
  /** The forge's edition and release, asked once per origin; only tools given an edition-dependent parameter call it. */
  readonly instance?: () => Promise<InstanceInfo>;
  /** JOB_LOG_MEMORY_BYTES: a streamed job-log read reserves what it may hold here first (D30). Absent: no process-wide bound. */
  readonly logBudget?: LogBudget;
  /** Who the caller is, when the credential check already knows (no forge call); whoami answers from it. */
  readonly knownCaller?: () => Record<string, unknown> | undefined;
}

type ToolMode = 'read' | 'write';

export interface ToolDefinition<S extends TObject = TObject> {
  readonly name: string;
  readonly title: string;
  /** Written for an agent choosing a tool: what it does, what it returns, the traps. */
  readonly description: string;
  readonly group: ToolGroup;
  readonly mode: ToolMode;
  /** Deletes or removes protection: clients should confirm (D14). */
  readonly destructive?: boolean;
  /** Repeating the same call has no further effect. Reads are always idempotent. */
  readonly idempotent?: boolean;
  readonly input: S;
  /** The forge endpoint(s) it calls, for the generated tool table. */
  readonly endpoint?: string;
  /** Its result may hold descriptions or comments linking uploads: add download links (src/downloads). */
  readonly attachments?: boolean;
  /**
   * The kind of forge record the result holds (one, an array, or a page's items): results are
   * lean records of that kind by default (D33, src/tools/lean/). A read tool that names one gets
   * `full_response` in its input schema, which returns the forge's records as they came.
   */
  readonly record?: RecordKindName;
  /**
   * What a tool with no record kind returns, as its published outputSchema (D41,
   * tools/output-schema.ts): an object schema, nothing at its top required. Absent: any object.
   */
  readonly output?: TObject;
  /**
   * A read tool whose result the handler builds from forge text that is no record (a job log's
   * lines): it takes `full_response` too, passed to it as ctx.fullResponse, and then returns the
   * text as the forge sent it, uncleaned (D33, D36).
   */
  readonly text?: true;
  /**
   * For a tool that returns a list but takes no per_page: how to ask for less when its result is
   * cut at MAX_RESULT_BYTES, naming only its own parameters (D33; tools/bounded-result.ts).
   */
  readonly narrowing?: string;
  /**
   * The texts of a write GitLab reads for its issue closing pattern (a merge request's title and
   * description, a commit message): when they hold "Closes #12" or the like, the result lists the
   * references in `closes_issues` (D36, src/text/closing-pattern.ts).
   */
  readonly closingText?: (args: Static<S>) => (string | undefined)[];
  /**
   * A destructive tool's target as a confirmation question names it (D42), read from the forge: the
   * title an id does not tell the user. One GET; a failure leaves the question naming the arguments.
   */
  readonly subject?: (args: Static<S>, forge: ForgeClient) => Promise<string | undefined>;
  /** Rules the schema cannot express (exclusive or paired parameters); throws invalidArgument. */
  readonly check?: (args: Static<S>) => void;
  readonly handler: (args: Static<S>, ctx: ToolContext) => Promise<unknown>;
}

/**
 * Identity at run time. The handler's argument type is checked against the schema here; the
 * result is the erased type the catalog stores, since the catalog validates before calling.
 */
export function defineTool<S extends TObject>(definition: ToolDefinition<S>): ToolDefinition {
  if (hasFullResponse(definition as unknown as ToolDefinition)) {
    const input = definition.input;
    // The catalog takes full_response out of the arguments before the handler sees them.
    const withFull = Type.Object({ ...input.properties, full_response: FULL_RESPONSE }, { additionalProperties: input.additionalProperties });
    return { ...definition, input: withFull } as unknown as ToolDefinition;
  }
  return definition as unknown as ToolDefinition;
}

/** Said on the parameter (D40) as well as in the server's instructions, which some clients never show. */
export const FULL_RESPONSE = Type.Optional(Type.Boolean({ description: "GitLab's raw records, not lean" }));

/** A read tool with a record kind takes full_response: the forge's records untouched (D33, D36). */
export function hasFullResponse(tool: Pick<ToolDefinition, 'mode' | 'record' | 'text'>): boolean {
  return tool.mode === 'read' && (tool.record !== undefined || tool.text === true);
}

interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: true;
}

export function annotationsOf(tool: ToolDefinition): ToolAnnotations {
  const read = tool.mode === 'read';
  // The title is the tool's own `title` field; repeating it here would only lengthen tools/list.
  return {
    readOnlyHint: read,
    destructiveHint: !read && tool.destructive === true,
    idempotentHint: read || tool.idempotent === true,
    openWorldHint: true,
  };
}
