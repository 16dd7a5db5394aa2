// Parameters that depend on what the forge runs (docs/forge-editions.md). GitLab's Community
// Edition declares paid-tier parameters nowhere, and its API framework drops undeclared parameters
// without a word: a weight, an iteration filter or a second assignee would simply not happen. On an
// instance known to be CE such a parameter is refused before anything is sent, naming the tier it
// needs; on an Enterprise build (whose licence the API does not tell) or an instance that would not
// say, GitLab decides as before. Features newer than the instance name the release they need.
import type { ToolContext } from './define';
import { invalidArgument } from './errors';
import { UNKNOWN_INSTANCE, type InstanceInfo } from '../forge/instance';

export interface PaidUse {
  /** The parameter named in the refusal. */
  parameter: string;
  /** Whether the call uses the paid feature through it. */
  used: boolean;
  /** What needs the tier, when it is not the parameter itself ("more than one assignee"). */
  what?: string;
}

/** What the forge runs, as the instance directory knows it; unknown where the context has none (stdio tests). */
export const instanceOf = async (ctx: ToolContext): Promise<InstanceInfo> => (ctx.instance ? ctx.instance() : UNKNOWN_INSTANCE);

/** Refuses the first paid-tier use on a Community Edition instance; asks the forge only when one is used. */
export async function refusePaidOnCommunityEdition(ctx: ToolContext, uses: PaidUse[]): Promise<void> {
  const first = uses.find((use) => use.used);
  if (!first) return;
  const info = await instanceOf(ctx);
  if (info.edition !== 'ce') return;
  throw invalidArgument(
    first.parameter,
    `${first.what ?? 'this parameter'} needs GitLab Premium or Ultimate; this forge runs the Community Edition (${info.versionText}), which would ignore it without saying so`,
  );
}

/** Whether the instance is known to run a release before major.minor (an unknown release is not older). */
export const older = (info: InstanceInfo, major: number, minor: number): boolean => {
  const v = info.version;
  return v !== null && (v.major < major || (v.major === major && v.minor < minor));
};

/** Refuses a feature the instance's release does not have yet; an unknown release lets GitLab decide. */
export async function requireRelease(ctx: ToolContext, parameter: string, feature: string, major: number, minor: number): Promise<void> {
  const info = await instanceOf(ctx);
  if (!older(info, major, minor)) return;
  throw invalidArgument(parameter, `${feature} needs GitLab ${major}.${minor} or later; this forge runs ${info.versionText}`);
}

/** The instance is known to run a release older than major.minor (an unknown release is not). */
export async function releaseBefore(ctx: ToolContext, major: number, minor: number): Promise<boolean> {
  return older(await instanceOf(ctx), major, minor);
}
