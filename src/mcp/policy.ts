// Per-request policy (D34): the tool groups, tools and read-only switch a request (headers or URL
// path, http/request-policy.ts) narrows the deployment's selection to. A policy travels as a
// canonical key on the Caller, so a legacy session keeps the one it was initialized with (in memory
// or sealed in a stateless id); the catalog of each distinct key is built once, from the
// deployment's own compiled entries, and kept in a bounded cache.
import type { Toolset } from '../tools/groups';
import { TOOLSET_NAMES } from '../tools/default-set';
import type { Narrowing, ToolCatalog } from '../tools/catalog';

const sorted = (names: readonly string[]) => [...new Set(names)].sort().join(',');

/** The policy's canonical key, or undefined when it narrows nothing (the deployment's own catalog). */
export function policyKey(policy: Narrowing): string | undefined {
  if (!policy.groups && !policy.tools && !policy.exclude && !policy.readOnly) return undefined;
  const parts = [
    policy.groups ? `g=${sorted(policy.groups)}` : '',
    policy.tools ? `t=${sorted(policy.tools)}` : '',
    policy.exclude ? `x=${sorted(policy.exclude)}` : '',
    policy.readOnly ? 'r' : '',
  ];
  return parts.filter(Boolean).join(';');
}

/** The policy a key stands for; parts it does not know are dropped (keys are this server's own). */
function policyOfKey(key: string): Narrowing {
  let groups: Toolset[] | undefined;
  let tools: string[] | undefined;
  let exclude: string[] | undefined;
  let readOnly = false;
  for (const part of key.split(';')) {
    const names = part.slice(2) ? part.slice(2).split(',') : [];
    if (part.startsWith('g=')) groups = names.filter((g): g is Toolset => TOOLSET_NAMES.has(g));
    else if (part.startsWith('t=')) tools = names;
    else if (part.startsWith('x=')) exclude = names;
    else if (part === 'r') readOnly = true;
  }
  return { groups, tools, exclude, readOnly };
}

/** Distinct policies kept at once; more evict the oldest (a rebuild costs a filter, no compiling). */
const MAX_POLICY_CATALOGS = 256;

export class PolicyCatalogs {
  private readonly built = new Map<string, ToolCatalog>();

  constructor(
    private readonly base: ToolCatalog,
    private readonly max = MAX_POLICY_CATALOGS,
  ) {}

  /** The catalog of a policy key: the deployment's own when there is none. */
  for(key: string | undefined): ToolCatalog {
    if (key === undefined) return this.base;
    let catalog = this.built.get(key);
    if (!catalog) {
      catalog = this.base.narrow(policyOfKey(key));
      if (this.built.size >= this.max) this.built.delete(this.built.keys().next().value as string);
      this.built.set(key, catalog);
    }
    return catalog;
  }

  get size(): number {
    return this.built.size;
  }
}
