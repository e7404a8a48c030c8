// The MCP server's tools as the docs list them (/docs/mcp), made once per process from the same procedures as the
// server's own list, with the free docs tools and each tool's toolset.
import { appRouter } from '@/server/api/root';
import { DOCS_TOOLS } from './docs-tools';
import { mcpToolDefinitions, type ToolDefinition } from './tools';
import { toolsetOf, type ToolsetName } from './toolsets';

let catalogue: (ToolDefinition & { toolset: ToolsetName })[] | undefined;

export function mcpTools(): (ToolDefinition & { toolset: ToolsetName })[] {
  return (catalogue ??= [
    ...mcpToolDefinitions(appRouter),
    ...Object.values(DOCS_TOOLS).map((tool) => tool.definition),
  ].map((definition) => ({ ...definition, toolset: toolsetOf(definition.name)! })));
}
