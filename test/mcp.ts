// The MCP endpoint called in process as a client's HTTP request would reach it (light-my-request, as test/public-api.ts
// calls the REST pipeline): one JSON-RPC request in, the HTTP status, headers and the JSON-RPC answer out.
import { inject } from 'light-my-request';
import { createMcpEndpoint, MCP_PATH, type McpHandler } from '@/server/mcp/mcp-endpoint';

const endpoints = new Map<string, McpHandler>();

export interface McpAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The JSON-RPC answer (a streamed one read from its event), or the problem of an HTTP-level refusal. */
  body: Record<string, unknown> | null;
  text: string;
}

/** POSTs `payload` (a JSON-RPC message, or raw text) to /api/mcp with the given Authorization header. */
export async function postMcp(
  origin: string,
  authorization: string | null,
  payload: unknown,
  headers: Record<string, string> = {},
  query = '',
): Promise<McpAnswer> {
  let endpoint = endpoints.get(origin);
  if (!endpoint) endpoints.set(origin, (endpoint = createMcpEndpoint({ origin })));
  const answer = await inject(endpoint, {
    method: 'POST',
    url: `${MCP_PATH}${query}`,
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
      // Every toolset, unless a test chooses its own (src/server/mcp/toolsets.ts).
      'X-MCP-Toolsets': 'all',
      ...(authorization === null ? {} : { Authorization: authorization }),
      ...headers,
    },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  const text = answer.payload;
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  let body: Record<string, unknown> | null = null;
  try {
    body = JSON.parse(data ? data.slice(6) : text) as Record<string, unknown>;
  } catch {
    body = null;
  }
  return { status: answer.statusCode, headers: answer.headers, body, text };
}

/** tools/call of `name` with `args`: the HTTP answer and, when the exchange got that far, the tool's result. */
export async function callMcpTool(
  origin: string,
  authorization: string | null,
  name: string,
  args: Record<string, unknown>,
) {
  const answer = await postMcp(origin, authorization, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const result = answer.body?.result as
    | { isError?: boolean; content: { text: string }[]; structuredContent?: unknown; _meta?: Record<string, unknown> }
    | undefined;
  const problem = result?.isError
    ? (JSON.parse(result.content[0]!.text) as { type: string; code: string; status: number })
    : null;
  return { ...answer, result, problem };
}
