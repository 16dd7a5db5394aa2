// Parameter schemas shared by the issue tools, so their wording and limits are the same everywhere.
import { Type } from '@sinclair/typebox';
import { described, listOf, numericId, shortName } from '../params';

export const issueIid = (description = '12 for #12 (iid)') => numericId(undefined, description);

const ISSUE_TYPES = ['issue', 'incident', 'test_case', 'task'] as const;
export const issueType = () =>
  Type.Optional(
    Type.Union(
      ISSUE_TYPES.map((t) => Type.Literal(t)),
      { description: 'test_case: Ultimate' },
    ),
  );

/** As a filter (the default description): an item must have them all; None and Any as GitLab reads them. */
export const labels = (description = 'All required; None: unlabelled, Any: labelled') =>
  Type.Optional(listOf(shortName({ pattern: '^[^,]+$', hint: 'label names cannot be empty or contain commas' }), description));

export const issueState = (description?: string) =>
  Type.Optional(Type.Union([Type.Literal('opened'), Type.Literal('closed'), Type.Literal('all')], described(description)));

/** GitLab takes label lists as one comma-separated string. */
export function joinLabels<T extends { labels?: string[] }>(args: T): Omit<T, 'labels'> & { labels?: string } {
  const { labels: list, ...rest } = args;
  return list === undefined ? rest : { ...rest, labels: list.join(',') };
}
