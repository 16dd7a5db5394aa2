// Human-readable forms of the settings schema: the --help text and the Markdown table used in
// docs/configuration.md and the README (generated, checked for drift by a test).
import type { TSchema } from '@sinclair/typebox';
import { SETTING_NAMES, flagName, settingSchema } from './schema';

function defaultText(schema: TSchema): string {
  const value = schema.default;
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}

function typeText(schema: TSchema): string {
  if (schema.type === 'array') return 'list';
  if (schema.anyOf) return schema.anyOf.map((s: TSchema) => s.const).join(' \\| ');
  return String(schema.type);
}

export function settingsMarkdown(): string {
  const rows = SETTING_NAMES.map((name) => {
    const schema = settingSchema(name);
    const def = defaultText(schema);
    return `| \`${name}\` | ${typeText(schema)} | ${def === '' ? '' : `\`${def}\``} | ${schema.description} |`;
  });
  return ['| Setting | Type | Default | Meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function helpText(): string {
  const lines = [
    'forge-mcp: MCP server for GitLab.',
    '',
    'Usage: forge-mcp [--name=value ...]  start the server (HTTP or stdio, see STREAMABLE_HTTP)',
    '       forge-mcp --healthcheck       exit 0 if the server on 127.0.0.1:PORT answers GET /healthz',
    '                                     with 200 within 2 s, else 1 (for a container HEALTHCHECK)',
    '       forge-mcp --help              print this text',
    '',
    'Every setting is an environment variable and may also be given as --name=value (the flag wins).',
    'An empty value (NAME= or --name=) counts as not given.',
    'Booleans take true/false/1/0; lists are comma-separated.',
    '',
  ];
  for (const name of SETTING_NAMES) {
    const schema = settingSchema(name);
    const def = defaultText(schema);
    lines.push(`  ${name} (${flagName(name)})${def === '' ? '' : ` [default: ${def}]`}`);
    lines.push(`      ${schema.description}`);
  }
  return `${lines.join('\n')}\n`;
}
