// The "Lean records" part of docs/tools.md: each kind's purpose, the tools returning it, and its
// lean form computed from a GitLab-shaped example (docs/architecture.md principle 10: from the code).
import type { ToolDefinition } from '../define';
import { RECORD_KINDS, type RecordKindName } from './index';
import type { TSchema } from '@sinclair/typebox';

/** A field's JSON type as its schema gives it: `integer`, `string|object`, `array of object`. */
function typeName(schema: TSchema): string {
  if (Array.isArray(schema.anyOf)) return (schema.anyOf as TSchema[]).map(typeName).join('|');
  if (Array.isArray(schema.type)) return schema.type.join('|');
  if (schema.type === 'array') return `array of ${typeName(schema.items as TSchema)}`;
  return String(schema.type);
}

/** The kind's fields as its schema (and every tool's outputSchema) declares them (D41). */
function fieldsLine(kind: RecordKindName): string {
  const properties = RECORD_KINDS[kind].schema.properties as Record<string, TSchema>;
  return `Fields: ${Object.entries(properties)
    .map(([name, schema]) => `\`${name}\` ${typeName(schema)}`)
    .join(', ')}.`;
}

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
        fieldsLine(kind),
        '',
        '```json',
        JSON.stringify(lean, null, 2),
        '```',
      ].join('\n');
    })
    .join('\n\n');
}
