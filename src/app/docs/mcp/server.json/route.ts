// /docs/mcp/server.json: the MCP server as the official MCP registry describes one (src/server/contract/mcp-server-json.ts).
import { serverModules } from '@/app/server-modules';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const { mcpServerJson, pageOrigin, MCP_PATH } = await serverModules();
  return Response.json(mcpServerJson(pageOrigin(), MCP_PATH), { headers: { 'Cache-Control': 'public, max-age=300' } });
}
