// The MCP server's tools as the docs list them (/docs/mcp), made once per process from the same procedures as the
// server's own list.
import { appRouter } from '@/server/api/root';
import { mcpToolDefinitions, type ToolDefinition } from './tools';

let catalogue: ToolDefinition[] | undefined;

export function mcpTools(): ToolDefinition[] {
  return (catalogue ??= mcpToolDefinitions(appRouter));
}
