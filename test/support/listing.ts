// A tool's listing as the listing-size budgets count it: what a model reads to choose a tool. Its
// outputSchema (D41) is measured apart (test/catalog.test.ts, docs/tools.md).
import { toolListing } from '../../src/tools/catalog';
import type { ToolDefinition } from '../../src/tools/define';

export function inputListing(tool: ToolDefinition) {
  const { outputSchema: _output, ...listing } = toolListing(tool);
  return listing;
}
