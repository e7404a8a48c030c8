// Both channels of the public API behind one local HTTP server, as the app serves them: the MCP server at /api/mcp,
// REST at every other path. For tests that hold one channel's answers to the other's.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createMcpEndpoint, MCP_PATH } from '@/server/mcp/mcp-endpoint';
import { createRestPipeline } from '@/server/rest/pipeline';

/** `publicOrigin`: the origin the channels name in their problems; the answer's `origin` is where they listen. */
export async function serveBothChannels(publicOrigin: string): Promise<{ server: Server; origin: string }> {
  const mcp = createMcpEndpoint({ origin: publicOrigin });
  const rest = createRestPipeline({ origin: publicOrigin });
  const server = createServer((req, res) => void (req.url?.startsWith(MCP_PATH) ? mcp(req, res) : rest(req, res)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
