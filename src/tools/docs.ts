// The tool table of docs/tools.md and the README, generated from the catalog definitions.
import type { TSchema } from '@sinclair/typebox';
import { TOOL_GROUPS } from './groups';
import { annotationsOf, type ToolDefinition } from './define';

function parameterList(tool: ToolDefinition): string {
  const required = new Set<string>((tool.input.required as string[] | undefined) ?? []);
  return Object.keys(tool.input.properties)
    .map((name) => (required.has(name) ? `\`${name}\`*` : `\`${name}\``))
    .join(', ');
}

function hints(tool: ToolDefinition): string {
  const a = annotationsOf(tool);
  if (a.readOnlyHint) return 'read';
  return ['write', a.destructiveHint ? 'destructive' : '', a.idempotentHint ? 'idempotent' : ''].filter(Boolean).join(', ');
}

export function toolsMarkdown(tools: readonly ToolDefinition[]): string {
  const sections: string[] = [];
  for (const group of TOOL_GROUPS) {
    const inGroup = tools.filter((t) => t.group === group);
    if (inGroup.length === 0) continue;
    const rows = inGroup.map((t) => `| \`${t.name}\` | ${hints(t)} | ${t.description.replaceAll('|', '\\|')} | ${parameterList(t)} |`);
    sections.push(
      [`### Group \`${group}\` (${inGroup.length} tools)`, '', '| Tool | Mode | What it does | Parameters (* required) |', '|---|---|---|---|', ...rows].join(
        '\n',
      ),
    );
  }
  return sections.join('\n\n');
}

/** Detailed reference: every parameter with its type and description. */
export function toolReferenceMarkdown(tools: readonly ToolDefinition[]): string {
  return tools
    .map((tool) => {
      const required = new Set<string>((tool.input.required as string[] | undefined) ?? []);
      const params = Object.entries(tool.input.properties as Record<string, TSchema>).map(([name, schema]) => {
        const type = schema.anyOf ? schema.anyOf.map((s: TSchema) => JSON.stringify(s.const)).join(' \\| ') : String(schema.type);
        return `| \`${name}\` | ${type} | ${required.has(name) ? 'yes' : ''} | ${(schema.description ?? '').replaceAll('|', '\\|')} |`;
      });
      return [
        `### \`${tool.name}\` — ${tool.title}`,
        '',
        tool.description,
        '',
        `Group \`${tool.group}\`, ${hints(tool)}.${tool.endpoint ? ` Forge endpoint: \`${tool.endpoint}\`.` : ''}`,
        '',
        '| Parameter | Type | Required | Meaning |',
        '|---|---|---|---|',
        ...params,
      ].join('\n');
    })
    .join('\n\n');
}
