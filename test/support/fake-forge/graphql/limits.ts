// GitLab's refusals of a query too costly or too deep, before it runs (app/graphql/gitlab_schema.rb:
// AUTHENTICATED_MAX_COMPLEXITY 250, AUTHENTICATED_MAX_DEPTH 20; graphql-ruby's analyzers say "Query has
// complexity of N, which exceeds max complexity of M" and "Query has depth of N, which exceeds max depth
// of M"). The fake counts one per field selected and one more per connection (a field taking `first`),
// a simplification of GitLab's cost calculation; tests lower the limits to reach the refusals.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

export function costOf(document: DocumentNode, operation: OperationDefinitionNode): { complexity: number; depth: number } {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  let complexity = 0;
  let depth = 0;
  const walk = (set: SelectionSetNode | undefined, level: number, seen: Set<string>) => {
    if (!set) return;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) {
        complexity += 1 + (s.arguments?.some((a) => a.name.value === 'first') ? 1 : 0);
        depth = Math.max(depth, level);
        walk(s.selectionSet, level + 1, seen);
      } else if (s.kind === Kind.INLINE_FRAGMENT) walk(s.selectionSet, level, seen);
      else if (!seen.has(s.name.value)) walk(fragments.get(s.name.value)?.selectionSet, level, new Set([...seen, s.name.value]));
    }
  };
  walk(operation.selectionSet, 1, new Set());
  return { complexity, depth };
}
