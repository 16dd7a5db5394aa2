// The "Lean records" part of docs/tools.md: each kind's purpose, the tools returning it, and its
// lean form computed from a GitLab-shaped example (docs/architecture.md principle 10: from the code).
import type { ToolDefinition } from '../define';
import { RECORD_KINDS, type RecordKindName } from './index';

export function leanRecordsMarkdown(tools: readonly ToolDefinition[], examples: Record<RecordKindName, Record<string, unknown>>): string {
  const kinds = (Object.keys(RECORD_KINDS) as RecordKindName[]).sort();
  return kinds
    .map((kind) => {
      const users = tools.filter((t) => t.record === kind).map((t) => `\`${t.name}\``);
      const example = examples[kind];
      const lean = RECORD_KINDS[kind].lean(structuredClone(example));
      const sizes = `${JSON.stringify(lean).length} bytes lean, ${JSON.stringify(example).length} as the forge sent it`;
      return [
        `### \`${kind}\``,
        '',
        `${RECORD_KINDS[kind].about} Returned by ${users.length ? users.join(', ') : 'no tool yet'} (${sizes}).`,
        '',
        '```json',
        JSON.stringify(lean, null, 2),
        '```',
      ].join('\n');
    })
    .join('\n\n');
}
