// Parameter readers that GitLab's IssuesFinder and MergeRequestsFinder share, as their Grape APIs
// take them: comma lists or `a[]=` arrays, integer_none_any ids, milestone titles by id.
import type { ForgeModel } from '../model';
import { paramError, type Params } from './http';

/** Rack gives `a[]=x` as an array and `a=x,y` as a string; GitLab accepts both for label-like lists. */
export function list(input: Params, name: string): string[] | undefined {
  const raw = input.raw(name);
  if (raw === undefined || raw === null) return undefined;
  const items = Array.isArray(raw) ? raw.map(String) : String(raw).split(',');
  return items.map((s) => s.trim()).filter(Boolean);
}

/** integer_none_any parameters: a user id, or None / Any in any case. */
export function idNoneAny(input: Params, name: string): number | 'none' | 'any' | undefined {
  const v = input.str(name);
  if (v === undefined) return undefined;
  const lower = v.toLowerCase();
  if (lower === 'none' || lower === 'any') return lower;
  if (/^\d+$/.test(v)) return Number(v);
  throw paramError(`${name} should be an integer, none or any`);
}

/** The title of the project or group milestone with this id. */
export function milestoneTitle(m: ForgeModel, id: number | null): string | undefined {
  if (id === null) return undefined;
  const all = [...[...m.projects.values()].flatMap((p) => p.milestones), ...[...m.groups.values()].flatMap((g) => g.milestones)];
  return all.find((x) => x.id === id)?.title;
}
