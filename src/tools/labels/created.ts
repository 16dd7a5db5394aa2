// labels_created (issue 36): GitLab creates a label it does not know when an issue or merge request
// names one (app/services/issuable_base_service.rb: find_or_create_label_ids, Labels::FindOrCreateService),
// so a misspelt label silently becomes a new one. The writes that take labels ask first which of the
// named labels the project has (its own and its groups'), and the result lists those GitLab then created.
import type { ForgeClient } from '../../forge/client';
import { fillPath } from '../../forge/encode';
import { ToolError } from '../errors';
import { isRecord } from '../lean/helpers';

const LABELS_PATH = '/projects/{project_id}/labels';

/**
 * The names among `labels` the project does not have, one search per distinct name (exact match on
 * the page of hits). A name whose search fails or whose hits fill the page without it is not
 * reported: this only ever says "created" when it knows.
 */
export async function unknownLabels(forge: ForgeClient, projectId: string, labels: string[] | undefined): Promise<string[]> {
  const names = [...new Set((labels ?? []).map((name) => name.trim()).filter((name) => name !== '' && name !== 'None' && name !== 'Any'))];
  if (names.length === 0) return [];
  const path = fillPath(LABELS_PATH, { project_id: projectId });
  const found = await Promise.all(
    names.map(async (name) => {
      try {
        const page = await forge.list<Record<string, unknown>>({ method: 'GET', path, query: { search: name, include_ancestor_groups: true, per_page: 100 } });
        if (page.items.some((label) => label.name === name)) return true;
        return !!page.pagination.next_page;
      } catch (error) {
        if (error instanceof ToolError && error.kind !== 'timeout') return true;
        throw error;
      }
    }),
  );
  return names.filter((_, i) => !found[i]);
}

/** The result with labels_created: the unknown names it now carries (GitLab created them). */
export function withLabelsCreated<T>(result: T, unknown: string[]): T {
  if (unknown.length === 0 || !isRecord(result) || !Array.isArray(result.labels)) return result;
  const carried = new Set(result.labels.map((label) => (isRecord(label) ? String(label.name) : String(label))));
  const created = unknown.filter((name) => carried.has(name));
  return created.length ? { ...result, labels_created: created } : result;
}
