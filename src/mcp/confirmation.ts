// Confirmations (D42): a tool that deletes or removes protection (`destructive: true`, tools/define.ts)
// runs only once the user said yes, where the client can ask the user.
//  - 2026-07-28 (the client declared `elicitation` in the request's capabilities): the first call is
//    answered `input_required` with one embedded elicitation naming the tool and its arguments, and a
//    sealed requestState; the client retries the same call with the answer and the state echoed. The
//    state (sealing kind `cf`) holds hashes of the credential, the tool name and its exact validated
//    arguments, and a nonce: it opens on any replica with the same sealing secret, expires after
//    FORGE_CONFIRM_TTL_SECONDS, is good for that credential, tool and argument set only, and is used
//    once (the nonce is marked in the shared store, D37: across replicas with Redis, else per replica).
//    A state that does not hold for the call as sent is never an error: the question is asked again.
//  - 2025 sessions (the client declared `elicitation` at initialize and has its notification stream
//    open, the only way a JSON-response session can send it a request): an elicitation/create is sent
//    and awaited.
//  - Anything else (a client that can do neither, stateless 2025 requests, stdio): as before, the
//    annotations alone mark the tool destructive.
// Declined or cancelled: a result that says nothing was done; the tool never runs.
import { inputRequired, inputResponse, type CallToolResult, type ElicitRequestFormParams, type ElicitResult } from '@modelcontextprotocol/server';
import type { Caller } from '../auth/caller';
import type { Logger } from '../logging/logger';
import { FUTURE_SKEW_SECONDS } from '../sealing/kinds';
import type { Sealer } from '../sealing/sealer';
import { storeKey, type SharedStore } from '../store/store';
import { cleanText } from '../text/untrusted';
import type { ToolDefinition } from '../tools/define';
import { ToolError } from '../tools/errors';
import { errorResult, successResult } from '../tools/result';

/** How the request being served can ask its user, as mcp/server.ts found it. */
export type Asking =
  | { readonly via: 'input_required'; readonly inputResponses?: Record<string, unknown>; readonly requestState?: string }
  | { readonly via: 'elicitation'; elicit(params: ElicitRequestFormParams): Promise<ElicitResult> };

/** A call held for its confirmation: the result to answer instead of running the tool. */
interface Held {
  readonly result: CallToolResult;
  readonly outcome: 'input_required' | 'declined' | 'upstream';
}

interface ConfirmationDeps {
  sealer: Sealer;
  /** Where used nonces are marked (D37): shared by the replicas with Redis. */
  store: SharedStore;
  /** FORGE_CONFIRM_TTL_SECONDS: the sealer opens a `cf` state for as long. */
  ttlSeconds: number;
  logger: Logger;
}

/** The key of the one embedded question. */
const KEY = 'confirm';
/** Argument values shown in a question at most this long (the rest elided). */
const MAX_VALUE_CHARS = 80;
const MAX_ARGUMENTS_SHOWN = 8;

interface StatePayload {
  /** The tool's name. */
  t: string;
  /** Hash of the tool and its exact validated arguments. */
  a: string;
  /** Hash of the credential and the forge it is used on. */
  c: string;
  /** Nonce: what single use marks. */
  n: string;
}

const sha = (text: string) => Bun.SHA256.hash(text, 'base64url') as string;

/** JSON with object keys sorted: one text for one argument set, whatever order the client wrote. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${stableJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** One argument (or a title the forge sent) as the question shows it: cleaned of invisible characters (D36) and short. */
function shown(value: unknown): string {
  const text = cleanText(typeof value === 'string' ? value : JSON.stringify(value));
  return text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
}

/** What the call acts on, named by its arguments (ids, paths, names), as the question and results say it. */
function namedTarget(args: Record<string, unknown>): string {
  const entries = Object.entries(args).filter(([, value]) => value !== undefined);
  const named = entries.slice(0, MAX_ARGUMENTS_SHOWN).map(([key, value]) => `${key}: ${shown(value)}`);
  if (entries.length > MAX_ARGUMENTS_SHOWN) named.push(`and ${entries.length - MAX_ARGUMENTS_SHOWN} more`);
  return named.join(', ');
}

function question(tool: ToolDefinition, target: string): ElicitRequestFormParams {
  return {
    mode: 'form',
    message: `Allow ${tool.name}? ${tool.title}: ${target}. It deletes or removes protection and cannot be undone here. Decline and nothing is done.`,
    requestedSchema: {
      type: 'object',
      properties: { confirm: { type: 'boolean', title: `Run ${tool.name}`, description: 'true runs it; false or decline does nothing' } },
      required: ['confirm'],
    },
  };
}

function declined(tool: ToolDefinition, target: string, why: string): Held {
  return {
    result: successResult({ done: false, declined: true, message: `${tool.name} did not run: ${why}. Nothing was changed (${target}).` }),
    outcome: 'declined',
  };
}

export class Confirmations {
  constructor(private readonly deps: ConfirmationDeps) {}

  /**
   * Undefined: run the tool (confirmed); else the result to answer instead. `subject`: what the
   * forge calls the target (a title), read only when a question is asked.
   */
  async confirm(
    tool: ToolDefinition,
    args: Record<string, unknown>,
    caller: Caller,
    asking: Asking,
    requestId?: string,
    subject?: () => Promise<string | undefined>,
  ): Promise<Held | undefined> {
    const target = namedTarget(args);
    const named = async () => {
      const title = await subject?.().catch(() => undefined);
      return title ? `${shown(title)} (${target})` : target;
    };
    if (asking.via === 'elicitation') {
      let answer: ElicitResult;
      try {
        answer = await asking.elicit(question(tool, await named()));
      } catch {
        // No answer within FORGE_CONFIRM_TTL_SECONDS, or the session closed: not confirmed.
        return declined(tool, target, 'the user could not be asked (no answer came)');
      }
      return this.judge(tool, target, answer.action, answer.content);
    }
    const binding = { t: tool.name, a: sha(stableJson({ tool: tool.name, args })), c: sha(`${caller.credential.token}\n${caller.apiUrl}`) };
    const state = asking.requestState === undefined ? undefined : await this.open(asking.requestState, binding, requestId, tool.name);
    const answer = inputResponse(asking.inputResponses, KEY);
    // No good state for this very call, or no answer to it: ask (again); nothing is run.
    if (!state || answer.kind !== 'elicit') return this.ask(tool, await named(), binding);
    try {
      // Single use: the first answer to a question counts, a replay of it is asked again.
      const ttlMs = (this.deps.ttlSeconds + FUTURE_SKEW_SECONDS) * 1000;
      if (!(await this.deps.store.setIfAbsent(storeKey('confirm', state.n), 'answered', ttlMs))) {
        this.refused(requestId, tool.name, 'used');
        return this.ask(tool, await named(), binding);
      }
    } catch {
      // The store cannot say whether the answer was used already: nothing runs (fail closed, D37).
      const error = new ToolError('upstream', `${tool.name} did not run: its confirmation could not be checked (the shared store is unavailable); try again`);
      return { result: errorResult(error), outcome: 'upstream' };
    }
    return this.judge(tool, target, answer.action, answer.content);
  }

  private judge(tool: ToolDefinition, target: string, action: ElicitResult['action'], content: unknown): Held | undefined {
    if (action === 'accept' && (content as { confirm?: unknown } | undefined)?.confirm === true) return undefined;
    return declined(tool, target, action === 'cancel' ? 'the user cancelled the question' : 'the user declined it');
  }

  private async ask(tool: ToolDefinition, target: string, binding: Omit<StatePayload, 'n'>): Promise<Held> {
    const requestState = await this.deps.sealer.seal('cf', { ...binding, n: crypto.randomUUID() } satisfies StatePayload);
    const result = inputRequired({ inputRequests: { [KEY]: inputRequired.elicit(question(tool, target)) }, requestState });
    // An input_required result travels where a tool result does (the SDK's tools/call answer).
    return { result: result as unknown as CallToolResult, outcome: 'input_required' };
  }

  /** The state's payload when it was sealed for this very call and is still fresh; undefined (logged) otherwise. */
  private async open(value: string, binding: Omit<StatePayload, 'n'>, requestId: string | undefined, tool: string): Promise<StatePayload | undefined> {
    const opened = await this.deps.sealer.open<StatePayload>('cf', value);
    if (!opened.ok) {
      this.refused(requestId, tool, opened.reason);
      return undefined;
    }
    const p = opened.payload;
    if (p.t !== binding.t || p.a !== binding.a || p.c !== binding.c || typeof p.n !== 'string') {
      this.refused(requestId, tool, p.c !== binding.c ? 'other credential' : 'other call');
      return undefined;
    }
    return p;
  }

  private refused(requestId: string | undefined, tool: string, reason: string): void {
    this.deps.logger.info('confirmation_state_refused', { request_id: requestId, tool, reason });
  }
}
