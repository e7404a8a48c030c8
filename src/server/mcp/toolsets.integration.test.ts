// Issue 66: what an agent is offered and pays for. Toolsets and a read-only mode chosen by header or query, the
// credential's scope on top; the default list small (counted with a real tokenizer); the free docs tools; `search` and
// `fetch` over the account's own apps and keywords, charged as their REST twins; results as structured content with a
// short text and links to what they name; and the SDK's own client on both protocol eras.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { PUBLIC_API_BASE_PATH } from '@/server/operations/routes';
import { serveBothChannels } from '../../../test/channels';
import { makeAsoApp } from '../../../test/aso-fixture';
import { postMcp } from '../../../test/mcp';
import { DOCS_TOOLS } from './docs-tools';
import { MCP_PATH } from './mcp-endpoint';
import { buildTools } from './tools';
import { DEFAULT_TOOLSETS, TOOLSETS } from './toolsets';

const ORIGIN = 'http://mcp.test';
let server: Server;
let origin: string;
let fixture: Awaited<ReturnType<typeof makeAsoApp>>;

beforeAll(async () => {
  ({ server, origin } = await serveBothChannels(ORIGIN));
  fixture = await makeAsoApp({ storeId: '700000066', terms: ['meditation', 'sleep sounds', 'mindfulness'] });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function keyOf(scope: 'read-only' | 'read-write', restrictions?: { appIds: string[] }) {
  return (await createApiKey(fixture.owner, { name: `toolsets ${scope}`, scope, restrictions })).secret;
}

async function creditsUsed(): Promise<number> {
  const rows = await db.creditUsage.aggregate({ where: { accountId: fixture.owner.accountId }, _sum: { used: true } });
  return rows._sum.used ?? 0;
}

/** tools/list as the endpoint answers it, with the request's own toolsets and mode headers. */
async function listed(secret: string, headers: Record<string, string> = {}) {
  const answer = await postMcp(
    ORIGIN,
    `Bearer ${secret}`,
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    { 'X-MCP-Toolsets': '', ...headers },
  );
  expect(answer.status, answer.text).toBe(200);
  return (answer.body!.result as { tools: { name: string; annotations: Record<string, boolean> }[] }).tools;
}

async function call(secret: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}) {
  const answer = await postMcp(
    ORIGIN,
    `Bearer ${secret}`,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    headers,
  );
  return answer.body as {
    result?: {
      isError?: boolean;
      content: { type: string; text?: string; uri?: string }[];
      structuredContent: Record<string, unknown>;
    };
    error?: { code: number; message: string };
  };
}

const toolsOf = (...toolsets: (keyof typeof TOOLSETS)[]) =>
  toolsets.flatMap((toolset) => TOOLSETS[toolset].tools as readonly string[]);

describe('toolsets and modes', () => {
  it('puts every tool in a toolset, and every toolset’s tools exist', () => {
    const names = [...buildTools(appRouter).keys(), ...Object.keys(DOCS_TOOLS)].sort();
    expect(toolsOf(...(Object.keys(TOOLSETS) as (keyof typeof TOOLSETS)[])).sort()).toEqual(names);
  });

  it('offers the default toolsets when none is chosen, a read-only key no write among them', async () => {
    const writer = await keyOf('read-write');
    expect((await listed(writer)).map((tool) => tool.name).sort()).toEqual(toolsOf(...DEFAULT_TOOLSETS).sort());
    const reader = await keyOf('read-only');
    const reads = (await listed(reader)).map((tool) => tool.name);
    expect(reads).not.toContain('keywords_add');
    expect(reads).toContain('keywords_list');
  });

  it('chooses by header or by query, `all` and `default` beside others, and read-only hides every write', async () => {
    const writer = await keyOf('read-write');
    const names = async (headers: Record<string, string>, query = '') => {
      const answer = await postMcp(
        ORIGIN,
        `Bearer ${writer}`,
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        { 'X-MCP-Toolsets': '', ...headers },
        query,
      );
      return (answer.body!.result as { tools: { name: string }[] }).tools.map((tool) => tool.name).sort();
    };
    expect(await names({ 'X-MCP-Toolsets': 'reviews,usage' })).toEqual(toolsOf('reviews', 'usage').sort());
    expect(await names({}, '?toolsets=competitors')).toEqual(toolsOf('competitors').sort());
    // The header wins over the query.
    expect(await names({ 'X-MCP-Toolsets': 'usage' }, '?toolsets=reviews')).toEqual(['usage_get']);
    expect(await names({ 'X-MCP-Toolsets': 'default,reviews' })).toEqual(
      toolsOf(...DEFAULT_TOOLSETS, 'reviews').sort(),
    );
    const every = await names({ 'X-MCP-Toolsets': 'all' });
    expect(every).toHaveLength(buildTools(appRouter).size + Object.keys(DOCS_TOOLS).length);
    const readOnly = await names({ 'X-MCP-Toolsets': 'all', 'X-MCP-Readonly': 'true' });
    expect(readOnly).not.toContain('apps_create');
    expect(readOnly).not.toContain('competitors_add');
    expect(readOnly).toContain('search_docs');
    expect(await names({ 'X-MCP-Toolsets': 'all' }, '?readonly=1')).toEqual(readOnly);
  });

  it('refuses a toolset that is none with 400, naming those there are, before anything runs', async () => {
    const answer = await postMcp(
      ORIGIN,
      `Bearer ${await keyOf('read-only')}`,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { 'X-MCP-Toolsets': 'apps,reveiws' },
    );
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/problem+json');
    expect(answer.body).toMatchObject({
      code: 'validation-error',
      errors: [{ in: 'header', pointer: 'X-MCP-Toolsets' }],
    });
    expect(String(answer.body!.detail)).toContain('"reveiws" is none');
  });

  it('answers a tool it did not offer as it answers an unknown one, charging nothing', async () => {
    const writer = await keyOf('read-write');
    const before = await creditsUsed();
    const outside = await call(writer, 'reviews_list', { id: fixture.app.id }, { 'X-MCP-Toolsets': 'apps' });
    expect(outside.error?.message).toMatch(/toolset is reviews/);
    const write = await call(
      writer,
      'keywords_add',
      { id: fixture.app.id, terms: ['read only'] },
      { 'X-MCP-Toolsets': 'keywords', 'X-MCP-Readonly': 'true' },
    );
    expect(write.error?.message).toMatch(/read-only/);
    expect(await creditsUsed()).toBe(before);
  });

  it('keeps the default list within 4,000 tokens (o200k), every schema’s references resolved', async () => {
    const tools = await listed(await keyOf('read-write'));
    expect(countTokens(JSON.stringify(tools))).toBeLessThanOrEqual(4_000);
    for (const tool of tools as unknown as { name: string; outputSchema: Record<string, unknown> }[]) {
      const refs = JSON.stringify(tool.outputSchema).match(/"#\/\$defs\/([^"]+)"/g) ?? [];
      for (const ref of refs) expect(tool.outputSchema.$defs, tool.name).toHaveProperty(ref.slice(9, -1));
    }
  });

  it('hints which tools reach a store, and which only read', async () => {
    const tools = await listed(await keyOf('read-write'), { 'X-MCP-Toolsets': 'all' });
    const hints = Object.fromEntries(tools.map((tool) => [tool.name, tool.annotations]));
    expect(hints.keywords_research).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    expect(hints.apps_create).toMatchObject({ readOnlyHint: false, openWorldHint: true });
    expect(hints.keywords_list).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(hints.keywords_add).toEqual({
      readOnlyHint: false,
      idempotentHint: false,
      destructiveHint: false,
      openWorldHint: false,
    });
    expect(hints.search_docs).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  });
});

describe('the free docs tools', () => {
  it('search the docs and read a page whole, never charged', async () => {
    const secret = await keyOf('read-only');
    const before = await creditsUsed();
    const found = await call(secret, 'search_docs', { query: 'tracked keywords rank' });
    const results = found.result!.structuredContent.results as { id: string; title: string; url: string }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.map((result) => result.id)).toContain('operation:GET /apps/{id}/keywords');
    const problem = await call(secret, 'search_docs', { query: 'credits exhausted' });
    expect((problem.result!.structuredContent.results as { id: string }[]).map((result) => result.id)).toContain(
      'problem:credits-exhausted',
    );
    const page = await call(secret, 'fetch_doc', { id: 'schema:KeywordListItem' });
    expect(page.result!.structuredContent).toMatchObject({
      id: 'schema:KeywordListItem',
      url: `${ORIGIN}/docs/data#schema-KeywordListItem`,
    });
    expect(page.result!.structuredContent.text).toMatch(/rankStatus/);
    expect(page.result!.content[0]!.text).toMatch(/rankStatus/);
    expect(await creditsUsed()).toBe(before);
  });

  it('refuse arguments that are not valid and a page that is none, as tool errors', async () => {
    const secret = await keyOf('read-only');
    const empty = await call(secret, 'search_docs', { query: '  ' });
    expect(empty.result!.isError).toBe(true);
    expect(JSON.parse(empty.result!.content[0]!.text!)).toMatchObject({ code: 'validation-error' });
    const missing = await call(secret, 'fetch_doc', { id: 'operation:GET /nothing' });
    expect(JSON.parse(missing.result!.content[0]!.text!)).toMatchObject({ code: 'not-found' });
  });
});

describe('search and fetch over the account’s apps and keywords', () => {
  it('find the app and its keywords, and fetch each as text, charged as their REST twins', async () => {
    const secret = await keyOf('read-only');
    const before = await creditsUsed();
    const found = await call(secret, 'search', { query: 'sleep' });
    const results = found.result!.structuredContent.results as { id: string; title: string; url: string }[];
    const keyword = await db.trackedKeyword.findFirstOrThrow({
      where: { appId: fixture.app.id, term: 'sleep sounds' },
    });
    expect(results).toContainEqual(
      expect.objectContaining({
        id: `keyword:${keyword.id}`,
        url: expect.stringContaining(`/apps/${fixture.app.id}?compare=${keyword.id}`),
      }),
    );
    // ChatGPT's connectors read the JSON in the text.
    expect(JSON.parse(found.result!.content[0]!.text!)).toEqual(found.result!.structuredContent);
    expect(await creditsUsed()).toBe(before + 1);
    const app = await call(secret, 'fetch', { id: `app:${fixture.app.id}` });
    expect(app.result!.structuredContent).toMatchObject({
      id: `app:${fixture.app.id}`,
      metadata: { appId: fixture.app.id },
    });
    expect(app.result!.structuredContent.text).toMatch(/“sleep sounds”/);
    const fetched = await call(secret, 'fetch', { id: `keyword:${keyword.id}` });
    expect(fetched.result!.structuredContent.text).toMatch(/not observed on \d+/);
    expect(await creditsUsed()).toBe(before + 3);
    // The same over REST.
    const rest = await fetch(`${origin}${PUBLIC_API_BASE_PATH}/search?query=sleep`, {
      headers: { Authorization: `Bearer ${secret}` },
    });
    expect(await rest.json()).toEqual(found.result!.structuredContent);
  });

  it('keep a restricted key to its apps: another app’s id is not found', async () => {
    const other = await makeAsoApp({ owner: fixture.owner, storeId: '700000067', terms: ['sleep well'] });
    const restricted = await keyOf('read-only', { appIds: [fixture.app.id] });
    const found = await call(restricted, 'search', { query: 'sleep' });
    const ids = (found.result!.structuredContent.results as { id: string }[]).map((result) => result.id);
    expect(ids.some((id) => id === `app:${other.app.id}`)).toBe(false);
    const refused = await call(restricted, 'fetch', { id: `app:${other.app.id}` });
    expect(JSON.parse(refused.result!.content[0]!.text!)).toMatchObject({ code: 'not-found' });
    const malformed = await call(restricted, 'fetch', { id: 'nothing' });
    expect(JSON.parse(malformed.result!.content[0]!.text!)).toMatchObject({ code: 'validation-error' });
  });
});

describe('results', () => {
  it('say in a short text what came back, beside the structured content, and link the app and keywords', async () => {
    const secret = await keyOf('read-only');
    const result = (await call(secret, 'keywords_list', { id: fixture.app.id })).result!;
    const text = result.content[0]!.text!;
    expect(text).toMatch(/^List tracked keywords: 3 items\./);
    expect(text.length).toBeLessThan(JSON.stringify(result.structuredContent).length);
    const links = result.content.filter((item) => item.type === 'resource_link');
    expect(links[0]).toMatchObject({ uri: `${ORIGIN}${PUBLIC_API_BASE_PATH}/apps/${fixture.app.id}` });
    expect(links.slice(1).every((link) => /\/keywords\/[0-9a-f-]{36}\/history$/.test(link.uri!))).toBe(true);
    expect(links).toHaveLength(4);
  });
});

describe('both protocol eras, with the SDK’s own client', () => {
  const connect = async (secret: string, era: 'legacy' | '2026-07-28') => {
    const client = new Client(
      { name: `toolsets ${era}`, version: '1.0.0' },
      era === 'legacy' ? {} : { versionNegotiation: { mode: { pin: era } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${origin}${MCP_PATH}`), {
        requestInit: { headers: { Authorization: `Bearer ${secret}` } },
      }),
    );
    return client;
  };

  it('lists the same tools and answers a call the same, charged once each', async () => {
    const secret = await keyOf('read-only');
    const legacy = await connect(secret, 'legacy');
    const modern = await connect(secret, '2026-07-28');
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(await names(modern)).toEqual(await names(legacy));
    const before = await creditsUsed();
    const args = { name: 'apps_get', arguments: { id: fixture.app.id } };
    const [old, current] = [await legacy.callTool(args), await modern.callTool(args)];
    expect(current.structuredContent).toEqual(old.structuredContent);
    expect(await creditsUsed()).toBe(before + 2);
    const docs = await modern.callTool({ name: 'search_docs', arguments: { query: 'webhook signature' } });
    expect((docs.structuredContent as { results: unknown[] }).results.length).toBeGreaterThan(0);
    await Promise.all([legacy.close(), modern.close()]);
  });
});
