// The MCP server driven by the SDK's own client over Streamable HTTP, beside the REST pipeline on one HTTP server:
// the credential, the tools a key is offered, results equal to REST's answers, the charge, refusals as tool errors,
// paging and idempotency. Over two web processes and `npm start`: e2e/api/mcp.spec.ts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
} from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { PUBLIC_API_BASE_PATH } from '@/server/operations/routes';
import { serveBothChannels } from '../../../test/channels';
import { makeAsoApp } from '../../../test/aso-fixture';
import { makeApp } from '../../../test/factories';
import { captureLogs } from '../../../test/logs';
import { createMcpEndpoint, MCP_PATH } from './mcp-endpoint';

let server: Server;
let origin: string;
/** The same endpoint with every tool call through the SDK's stateless leg: the reference of the exchange path. */
let sdkServer: Server;
let sdkOrigin: string;
let fixture: Awaited<ReturnType<typeof makeAsoApp>>;

beforeAll(async () => {
  ({ server, origin } = await serveBothChannels('http://mcp.test'));
  const sdkMcp = createMcpEndpoint({ origin: 'http://mcp.test', toolCallPath: 'sdk' });
  sdkServer = createServer((req, res) => void sdkMcp(req, res));
  await new Promise<void>((resolve) => sdkServer.listen(0, '127.0.0.1', resolve));
  sdkOrigin = `http://127.0.0.1:${(sdkServer.address() as AddressInfo).port}`;
  fixture = await makeAsoApp();
});

afterAll(async () => {
  await new Promise((resolve) => sdkServer.close(resolve));
  await new Promise((resolve) => server.close(resolve));
});

async function connect(secret: string): Promise<Client> {
  const client = new Client({ name: 'mcp-endpoint test', version: '1.0.0' });
  await client.connect(
    // Every toolset (src/server/mcp/toolsets.ts; the default and the choices: toolsets.integration.test.ts).
    new StreamableHTTPClientTransport(new URL(`${origin}${MCP_PATH}?toolsets=all`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    }),
  );
  return client;
}

async function keyOf(scope: 'read-only' | 'read-write', restrictions?: { appIds: string[] }) {
  return (await createApiKey(fixture.owner, { name: `mcp ${scope}`, scope, restrictions })).secret;
}

function rest(secret: string, path: string): Promise<Response> {
  return fetch(`${origin}${PUBLIC_API_BASE_PATH}${path}`, { headers: { Authorization: `Bearer ${secret}` } });
}

async function creditsUsed(): Promise<number> {
  const rows = await db.creditUsage.aggregate({ where: { accountId: fixture.owner.accountId }, _sum: { used: true } });
  return rows._sum.used ?? 0;
}

type Result = Awaited<ReturnType<Client['callTool']>>;
const problemOf = (result: Result) =>
  JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;

describe('the credential', () => {
  it('is needed for every request, initialize included: 401 with a challenge, as on REST', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    for (const authorization of [undefined, 'Bearer svc_live_nonsense', 'Basic abc']) {
      const response = await fetch(`${origin}${MCP_PATH}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...(authorization ? { Authorization: authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="public-api"/);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
    }
  });

  it('a page of another site is refused before its credential is read (DNS rebinding); this site’s and a client without an Origin are served', async () => {
    const secret = await keyOf('read-only');
    const list = (headers: Record<string, string>) =>
      fetch(`${origin}${MCP_PATH}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    for (const headers of [
      { Origin: 'http://evil.example.com', Authorization: `Bearer ${secret}` },
      { Origin: 'http://evil.example.com' },
      { Origin: 'null', Authorization: `Bearer ${secret}` },
    ] as Record<string, string>[]) {
      const refused = await list(headers);
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(await refused.json()).toMatchObject({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32000, message: expect.stringMatching(/Origin/) },
      });
    }
    for (const headers of [{ Origin: 'http://mcp.test' }, { Origin: 'https://mcp.test:8443' }, {}] as Record<
      string,
      string
    >[]) {
      expect((await list({ ...headers, Authorization: `Bearer ${secret}` })).status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('a revoked key is refused on its next request', async () => {
    const { key, secret } = await createApiKey(fixture.owner, { name: 'mcp revoked', scope: 'read-only' });
    const client = await connect(secret);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await db.apiKey.update({ where: { id: key.id }, data: { revokedAt: new Date() } });
    await expect(client.listTools()).rejects.toThrow(/401/);
  });
});

describe('tools', () => {
  it('are the public data operations, each with its cost, schemas and annotations; a read-only key sees no write tool', async () => {
    const all = (await (await connect(await keyOf('read-write'))).listTools()).tools;
    const reads = (await (await connect(await keyOf('read-only'))).listTools()).tools;
    // The 30 operations' tools and the 2 free docs tools (every toolset: toolsets.integration.test.ts); never the
    // approval of a reply, a member's act. A read-only key is offered the reads and the exports' two POSTs (an export
    // reads data), which are not reads themselves (they make an export).
    expect(all).toHaveLength(32);
    expect(all.map((tool) => tool.name)).not.toContain('api_keys_list');
    expect(all.map((tool) => tool.name)).not.toContain('reviews_approve_reply_draft');
    expect(reads.map((tool) => tool.name).sort()).toEqual(
      [
        ...all.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name),
        'exports_create',
        'exports_cancel',
      ].sort(),
    );
    expect(reads).toHaveLength(27);
    const research = all.find((tool) => tool.name === 'keywords_research')!;
    expect(research.description).toMatch(/Costs 8 credits; refusals are free\./);
    expect(research._meta).toEqual({ credits: 8, scope: 'read', restEndpoint: 'GET /apps/{id}/keywords/research' });
    expect(research.inputSchema).toMatchObject({
      type: 'object',
      properties: { id: { type: 'string' }, term: { type: 'string' } },
    });
    expect(research.outputSchema?.type).toBe('object');
    // Every output schema resolves its own references (the client compiles it before it accepts a result).
    for (const tool of all)
      expect(
        JSON.stringify(tool.outputSchema)
          .match(/"#\/\$defs\/([^"]+)"/g)
          ?.every((ref) => ref.slice(9, -1) in (tool.outputSchema!.$defs as object)) ?? true,
        tool.name,
      ).toBe(true);
    const add = all.find((tool) => tool.name === 'keywords_add')!;
    expect(add.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, openWorldHint: false });
    expect(add.inputSchema.properties).toHaveProperty('idempotencyKey');
  });

  it('answer what REST answers, as structured content, charged the same credits', async () => {
    const secret = await keyOf('read-only');
    const client = await connect(secret);
    const { app } = fixture;
    for (const [tool, args, path] of [
      ['apps_get', { id: app.id }, `/apps/${app.id}`],
      ['apps_list', {}, '/apps'],
      ['apps_aso_score', { id: app.id }, `/apps/${app.id}/aso-score`],
      ['keywords_list', { id: app.id }, `/apps/${app.id}/keywords`],
      ['usage_get', {}, '/usage'],
    ] as const) {
      const before = await creditsUsed();
      const result = await client.callTool({ name: tool, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
      const charged = (await creditsUsed()) - before;
      const response = await rest(secret, path);
      const answer = await response.json();
      // A free read (usage) changes nothing between the two calls; a charged one is asked of REST after it was charged.
      // A list about one app has beside its items the freshness REST says in headers.
      const listed =
        tool === 'keywords_list'
          ? {
              items: answer,
              freshness: {
                storefront: response.headers.get('aso-storefront'),
                dataThrough: response.headers.get('aso-data-through'),
                limits: expect.any(Array),
              },
            }
          : { items: answer };
      expect(result.structuredContent, tool).toEqual(Array.isArray(answer) ? listed : answer);
      expect(charged, tool).toBe(tool === 'usage_get' ? 0 : 1);
      expect(result._meta).toMatchObject({
        requestId: expect.any(String),
        credits: { charged: charged, limit: expect.any(Number), remaining: expect.any(Number) },
      });
    }
  });

  it('page a long list on request, and say how to get the next page', async () => {
    const client = await connect(await keyOf('read-only'));
    const result = await client.callTool({
      name: 'keywords_list',
      arguments: { id: fixture.app.id, page: 1, pageSize: 2 },
    });
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
    expect(result._meta?.paging).toEqual({ page: 1, pageSize: 2, total: 5, nextPage: 2 });
    expect((result.content as { text: string }[]).at(-1)!.text).toMatch(/page=2 and pageSize=2/);
  });
});

describe('refusals are tool errors carrying the problem, and free', () => {
  it('a write with a read-only key: insufficient-scope', async () => {
    const client = await connect(await keyOf('read-only'));
    const before = await creditsUsed();
    const result = await client.callTool({
      name: 'keywords_add',
      arguments: { id: fixture.app.id, terms: ['never added'] },
    });
    expect(result.isError).toBe(true);
    expect(problemOf(result)).toMatchObject({
      code: 'insufficient-scope',
      status: 403,
      detail: expect.stringMatching(/read-only/),
    });
    expect(await creditsUsed()).toBe(before);
  });

  it('an app outside a restricted key’s apps: not found, as on REST; its list shows its own apps only', async () => {
    const other = await makeApp(fixture.owner.accountId);
    const secret = await keyOf('read-write', { appIds: [fixture.app.id] });
    const client = await connect(secret);
    const result = await client.callTool({ name: 'apps_get', arguments: { id: other.id } });
    expect(problemOf(result)).toMatchObject({ code: 'not-found', status: 404 });
    expect(problemOf(result).detail).toBe((await (await rest(secret, `/apps/${other.id}`)).json()).detail);
    const list = await client.callTool({ name: 'apps_list', arguments: {} });
    expect((list.structuredContent as { items: { id: string }[] }).items.map((app) => app.id)).toEqual([
      fixture.app.id,
    ]);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('apps_create');
  });

  it('arguments that fail validation: validation-error naming each, never charged; an unknown tool: a protocol error', async () => {
    const client = await connect(await keyOf('read-write'));
    const before = await creditsUsed();
    const result = await client.callTool({ name: 'reviews_list', arguments: { id: 'not-a-uuid', page: 999_999_999 } });
    expect(problemOf(result)).toMatchObject({
      code: 'validation-error',
      errors: expect.arrayContaining([
        expect.objectContaining({ pointer: '#/id' }),
        expect.objectContaining({ pointer: '#/page' }),
      ]),
    });
    await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
      /no tool named "no_such_tool"/,
    );
    expect(await creditsUsed()).toBe(before);
  });

  it('malformed JSON-RPC gets the protocol’s parse error, never a 5xx', async () => {
    const secret = await keyOf('read-only');
    const response = await fetch(`${origin}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${secret}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
  });

  it('a body that is JSON but no JSON-RPC message is the client’s mistake: 400, and no error of ours in the log', async () => {
    const secret = await keyOf('read-only');
    const errorLines: string[] = [];
    const stderr = vi
      .spyOn(process.stderr, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (errorLines.push(String(chunk)), true));
    try {
      for (const body of ['{}', '{"jsonrpc":"2.0","id":1}']) {
        const response = await fetch(`${origin}${MCP_PATH}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${secret}`,
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body,
        });
        expect(response.status, body).toBe(400);
      }
    } finally {
      stderr.mockRestore();
    }
    expect(errorLines).toEqual([]);
  });

  it('a JSON-RPC batch is refused whole before anything runs (one message per request, as MCP has had since 2025-06-18)', async () => {
    const secret = await keyOf('read-only');
    const before = await creditsUsed();
    const call = (id: number) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'apps_get', arguments: { id: fixture.app.id } },
    });
    const response = await fetch(`${origin}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${secret}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify([call(1), call(2)]),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(await creditsUsed()).toBe(before);
  });
});

describe('a plain tool call, served by one long-lived Server rather than the SDK’s per-request leg', () => {
  /**
   * A tool call as a 2025-era client posts it, its answer's status, headers and SSE body (the request id and the credits
   * used, which differ from call to call, left out).
   */
  async function post(at: string, secret: string, message: unknown) {
    const response = await fetch(`${at}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${secret}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
        'X-MCP-Toolsets': 'all',
      },
      body: JSON.stringify(message),
    });
    const requestId = response.headers.get('x-request-id')!;
    const body = (await response.text()).replaceAll(requestId, '<request id>');
    const headers = [...response.headers].filter(([name]) => !['x-request-id', 'date', 'keep-alive'].includes(name));
    const event = /^event: message\ndata: (.+)\n\n$/.exec(body);
    const message_ = event
      ? (JSON.parse(event[1]!) as { result?: { _meta?: { credits?: Record<string, unknown> } } })
      : null;
    delete message_?.result?._meta?.credits?.used;
    delete message_?.result?._meta?.credits?.remaining;
    return { status: response.status, headers, framed: event !== null, message: message_ ?? body };
  }

  it('answers byte for byte as the SDK’s leg: a result, a tool error, a protocol error, ids of either type, malformed messages', async () => {
    const secret = await keyOf('read-only');
    const call = (id: unknown, name: unknown, args: unknown) => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: args },
    });
    for (const [message, framed] of [
      [call(7, 'apps_get', { id: fixture.app.id }), true],
      [call('call-a', 'apps_get', { id: fixture.app.id }), true],
      [call(8, 'reviews_list', { id: 'not-a-uuid' }), true],
      [call(9, 'keywords_add', { id: fixture.app.id, terms: ['never added'] }), true],
      [call(10, 'no_such_tool', {}), true],
      [call(11, 5, {}), true],
      // Not JSON-RPC requests: the SDK's parse error, on either path.
      [call(1.5, 'apps_get', { id: fixture.app.id }), false],
      [{ ...call(12, 'apps_get', { id: fixture.app.id }), jsonrpc: '1.0' }, false],
    ] as const) {
      const exchange = await post(origin, secret, message);
      const sdk = await post(sdkOrigin, secret, message);
      expect(exchange.framed, JSON.stringify(message)).toBe(framed);
      expect(JSON.stringify(exchange), JSON.stringify(message)).toBe(JSON.stringify(sdk));
    }
  });

  it('leaves a 2026-07-28 request (its envelope in _meta) to the SDK’s handler, which answers it with the same result', async () => {
    const secret = await keyOf('read-only');
    const envelope = {
      [PROTOCOL_VERSION_META_KEY]: '2026-07-28',
      [CLIENT_INFO_META_KEY]: { name: 'modern client', version: '1.0.0' },
      [CLIENT_CAPABILITIES_META_KEY]: {},
    };
    const response = await fetch(`${origin}${MCP_PATH}`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${secret}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2026-07-28',
        'Mcp-Method': 'tools/call',
        'Mcp-Name': 'apps_get',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'apps_get', arguments: { id: fixture.app.id }, _meta: envelope },
      }),
    });
    const body = await response.text();
    expect(response.status, body).toBe(200);
    const data = /^data: (.+)$/m.exec(body)?.[1] ?? body;
    expect(JSON.parse(data)).toMatchObject({ id: 3, result: { structuredContent: { id: fixture.app.id } } });
  });

  it('keeps concurrent calls of the same JSON-RPC id apart: each gets its own answer under its own id', async () => {
    const secret = await keyOf('read-only');
    const calls = Array.from({ length: 12 }, (_, n) => ({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: n % 2 ? { name: 'usage_get', arguments: {} } : { name: 'apps_get', arguments: { id: fixture.app.id } },
    }));
    const answers = await Promise.all(calls.map((message) => post(origin, secret, message)));
    answers.forEach((answer, n) => {
      const { id, result } = answer.message as { id: number; result: { structuredContent: Record<string, unknown> } };
      expect(id).toBe(1);
      if (n % 2) expect(result.structuredContent).toHaveProperty('byEndpoint');
      else expect(result.structuredContent).toMatchObject({ id: fixture.app.id });
    });
  });
});

describe('writes', () => {
  it('take an idempotency key: a repeat is answered as the first, and charged once', async () => {
    const client = await connect(await keyOf('read-write'));
    const before = await creditsUsed();
    const args = { id: fixture.app.id, terms: ['mcp idempotent term'], idempotencyKey: `mcp-${Date.now()}` };
    const first = await client.callTool({ name: 'keywords_add', arguments: args });
    const again = await client.callTool({ name: 'keywords_add', arguments: args });
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(again.structuredContent).toEqual(first.structuredContent);
    expect(again._meta?.idempotentReplayed).toBe(true);
    expect((await creditsUsed()) - before).toBe(2);
  });
});

describe('the response cache', () => {
  it('replays a read computed from the same data, charged like a computed one, and never answers from older data', async () => {
    const secret = await keyOf('read-write');
    const client = await connect(secret);
    const logLines = captureLogs();
    const before = await creditsUsed();
    const first = await client.callTool({ name: 'keywords_list', arguments: { id: fixture.app.id } });
    const again = await client.callTool({ name: 'keywords_list', arguments: { id: fixture.app.id } });
    expect(again.structuredContent).toEqual(first.structuredContent);
    // The replayed text content too, written once for the cache entry.
    expect(again.content).toEqual(first.content);
    expect((await creditsUsed()) - before).toBe(2);
    await client.callTool({ name: 'keywords_add', arguments: { id: fixture.app.id, terms: ['mcp cache term'] } });
    const after = await client.callTool({ name: 'keywords_list', arguments: { id: fixture.app.id } });
    vi.restoreAllMocks();
    expect((after.structuredContent as { items: { term: string }[] }).items.map((keyword) => keyword.term)).toContain(
      'mcp cache term',
    );
    const caches = logLines()
      .map((line) => JSON.parse(line))
      .filter((line) => line.route === 'mcp:keywords_list')
      .map((line) => line.cache);
    expect(caches).toEqual(['miss', 'hit', 'miss']);
  });
});

describe('usage', () => {
  it('names the channel and the tool: GET /usage counts a tool’s calls as `mcp <tool>`, apart from REST’s', async () => {
    const secret = await keyOf('read-only');
    const client = await connect(secret);
    const usage = async () =>
      (await (await rest(secret, '/usage')).json()) as {
        byEndpoint: { endpoint: string; calls: number; credits: number }[];
      };
    const calls = (endpoint: string, report: Awaited<ReturnType<typeof usage>>) =>
      report.byEndpoint.find((row) => row.endpoint === endpoint)?.calls ?? 0;
    const before = await usage();
    await client.callTool({ name: 'metadata_get', arguments: { id: fixture.app.id } });
    await rest(secret, `/apps/${fixture.app.id}/metadata`);
    const after = await usage();
    expect(calls('mcp metadata_get', after) - calls('mcp metadata_get', before)).toBe(1);
    expect(calls('GET /apps/{id}/metadata', after) - calls('GET /apps/{id}/metadata', before)).toBe(1);
  });
});
