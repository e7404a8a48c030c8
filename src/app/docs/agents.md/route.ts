// /docs/agents.md: the AGENTS.md of the API and the MCP server, as Markdown (src/server/contract/agents-guide.ts).
import { serverModules } from '@/app/server-modules';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const { agentsGuide, pageOrigin, MCP_PATH } = await serverModules();
  return new Response(agentsGuide(pageOrigin(), MCP_PATH), {
    headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Cache-Control': 'public, max-age=300' },
  });
}
