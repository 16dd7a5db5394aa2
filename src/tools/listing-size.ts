// What the tool listing costs the model that reads it (D40): tools/list bytes, as clients receive
// them (name, title, description, inputSchema, annotations), per group and for the default set; the
// output schemas (D41) are measured apart, as what they add.
// test/catalog.test.ts holds the budgets; docs/tools.md publishes the table (scripts/gen-docs.ts).
import { ALL_TOOLS, toolListing } from './catalog';
import { DEFAULT_TOOLS } from './default-set';
import { TOOL_GROUPS, type ToolGroup } from './groups';
import type { ToolDefinition } from './define';

/**
 * Each group's tools/list bytes at 868e772, before parameters carried descriptions (issue 37), and
 * its tools then. No group may grow past 1.3 times its bytes per tool (test/catalog.test.ts).
 */
export const LISTING_AT_868E772: Readonly<Record<ToolGroup, { tools: number; bytes: number }>> = {
  milestones: { tools: 17, bytes: 9304 },
  branches: { tools: 15, bytes: 8188 },
  issues: { tools: 24, bytes: 15024 },
  merge_requests: { tools: 16, bytes: 12271 },
  pipelines: { tools: 11, bytes: 7539 },
  repository: { tools: 5, bytes: 4566 },
  projects: { tools: 11, bytes: 8387 },
  users: { tools: 3, bytes: 1251 },
  search: { tools: 2, bytes: 1771 },
  labels: { tools: 6, bytes: 3468 },
  wiki: { tools: 10, bytes: 5481 },
  releases: { tools: 12, bytes: 6757 },
  context: { tools: 4, bytes: 2324 },
  variables: { tools: 10, bytes: 7741 },
  ci: { tools: 15, bytes: 8554 },
  // Born after 868e772 (issue 39), with descriptions: its bytes when it landed (0e63fac).
  work_items: { tools: 11, bytes: 10988 },
};

/** A group may grow to this many times its bytes per tool at 868e772. */
const GROWTH_LIMIT = 1.3;

/** The most tools/list bytes per tool a group may have: GROWTH_LIMIT times its bytes per tool at 868e772. */
export const bytesPerToolBudget = (group: ToolGroup) =>
  Math.floor(GROWTH_LIMIT * Math.round(LISTING_AT_868E772[group].bytes / LISTING_AT_868E772[group].tools));

/** A tool's listing without its output schema: what a model reads to choose a tool. */
const inputSide = (tool: ToolDefinition) => {
  const { outputSchema: _output, ...rest } = toolListing(tool);
  return rest;
};

/** Bytes of the tools/list result that lists these tools, output schemas left out. */
export const listingBytes = (tools: readonly ToolDefinition[]) => JSON.stringify({ tools: tools.map(inputSide) }).length;

/** What the tools' output schemas add to that result (D41). */
const outputSchemaBytes = (tools: readonly ToolDefinition[]) => JSON.stringify({ tools: tools.map(toolListing) }).length - listingBytes(tools);

const inGroup = (group: ToolGroup) => ALL_TOOLS.filter((t) => t.group === group);
const perTool = (bytes: number, tools: number) => Math.round(bytes / tools);

/** A group's tools/list bytes per tool today, rounded as those at 868e772 were. */
export const groupBytesPerTool = (group: ToolGroup) => perTool(listingBytes(inGroup(group)), inGroup(group).length);

/** The table of docs/tools.md: every group then and now, and the default set. */
export function listingSizeMarkdown(): string {
  const n = (value: number) => value.toLocaleString('en-US');
  const rows = TOOL_GROUPS.map((group) => {
    const then = LISTING_AT_868E772[group];
    const tools = inGroup(group);
    const before = perTool(then.bytes, then.tools);
    const after = groupBytesPerTool(group);
    return `| \`${group}\` | ${tools.length} | ${n(then.bytes)} | ${n(listingBytes(tools))} | ${before} | ${after} | ${(after / before).toFixed(2)} | ${n(outputSchemaBytes(tools))} |`;
  });
  const defaults = ALL_TOOLS.filter((t) => DEFAULT_TOOLS.has(t.name));
  return [
    '| Group | Tools | Bytes at 868e772 | Bytes now | Per tool then | Per tool now | Ratio | Output schemas add |',
    '|---|---|---|---|---|---|---|---|',
    ...rows,
    `| all groups | ${ALL_TOOLS.length} | | ${n(listingBytes(ALL_TOOLS))} | | | | ${n(outputSchemaBytes(ALL_TOOLS))} |`,
    `| default set (\`FORGE_TOOLSETS\` unset) | ${defaults.length} | | ${n(listingBytes(defaults))} | | | | ${n(outputSchemaBytes(defaults))} |`,
  ].join('\n');
}
