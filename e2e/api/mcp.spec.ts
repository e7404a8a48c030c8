// The MCP server at /api/mcp through `npm start`'s processes, driven by the SDK's own client over Streamable HTTP: the
// tools a key is offered, every tool against its REST twin, a key's budget and the plan's allowance running out, the
// request rate, a key's apps, revocation, and bad input that never gets a 5xx nor a charge. Credits exact over two web
// processes: e2e/api/second-process.spec.ts.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import {
  admin,
  API,
  bearer,
  createKey,
  newAccount,
  replyDraftOf,
  sandboxKey,
  trpc,
  trpcQuery,
  type Session,
} from '../helpers';

const MCP = '/api/mcp';
type Result = Awaited<ReturnType<Client['callTool']>>;

/** A client of every toolset (`?toolsets=all`), or of the default ones. */
async function connect(secret: string, origin = baseURL, toolsets: 'all' | 'default' = 'all'): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1.0.0' });
  const query = toolsets === 'all' ? '?toolsets=all' : '';
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${origin}${MCP}${query}`), { requestInit: { headers: bearer(secret) } }),
  );
  return client;
}

const problemOf = (result: Result) =>
  JSON.parse((result.content as { text: string }[])[0]!.text) as Record<string, unknown>;

async function used(request: APIRequestContext, key: string): Promise<number> {
  return (await (await request.get(`${API}/usage`, { headers: bearer(key) })).json()).used;
}

/** A Pro account tracking one app (its day of data loaded), two tracked keywords and a competitor. */
async function trackedApp(request: APIRequestContext) {
  const { session, email } = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const writer = await createKey(session, 'read-write', 'mcp writer');
  expect(
    (
      await request.post(`${API}/apps/${appId}/keywords`, {
        headers: bearer(writer),
        data: { terms: ['focus timer', 'pomodoro'] },
      })
    ).status(),
  ).toBe(200);
  expect(
    (
      await request.post(`${API}/apps/${appId}/competitors`, {
        headers: bearer(writer),
        data: { storeUrl: 'https://apps.apple.com/us/app/habit-loop/id1500000002' },
      })
    ).status(),
  ).toBe(200);
  const keywords = (await (await request.get(`${API}/apps/${appId}/keywords`, { headers: bearer(writer) })).json()) as {
    keywordId: string;
    term: string;
  }[];
  return { session, email, appId, writer, keywordId: keywords[0]!.keywordId };
}

/** The REST path of a tool's call: its endpoint's template filled from the arguments, the rest as the query. */
function restPathOf(endpoint: string, args: Record<string, unknown>): string {
  const query = new URLSearchParams();
  let path = endpoint.slice(endpoint.indexOf(' ') + 1);
  for (const [name, value] of Object.entries(args)) {
    if (path.includes(`{${name}}`)) path = path.replace(`{${name}}`, String(value));
    else query.set(name, String(value));
  }
  return `${API}${path}${query.size ? `?${query}` : ''}`;
}

test('a read-write key is offered the 30 data tools and 2 docs tools, a read-only key the 25 reads and the exports’ 2 POSTs; none manages keys, webhooks or billing; the default toolsets are fewer', async () => {
  const { session } = await newAccount('pro');
  const writer = await createKey(session, 'read-write');
  const all = (await (await connect(writer)).listTools()).tools;
  const reads = (await (await connect(await createKey(session, 'read-only'))).listTools()).tools;
  expect(all).toHaveLength(32);
  expect(reads).toHaveLength(27);
  const defaults = (await (await connect(writer, baseURL, 'default')).listTools()).tools.map((tool) => tool.name);
  expect(defaults.sort()).toEqual(
    [
      'apps_list',
      'apps_get',
      'apps_create',
      'keywords_list',
      'keywords_add',
      'keywords_history',
      'search_docs',
      'fetch_doc',
      'search',
      'fetch',
    ].sort(),
  );
  // A read-only key may ask for an export (it reads data): those two tools are not reads themselves.
  expect(reads.filter((tool) => !tool.annotations?.readOnlyHint).map((tool) => tool.name)).toEqual([
    'exports_create',
    'exports_cancel',
  ]);
  expect(
    all.map((tool) => tool._meta?.restEndpoint).filter((endpoint) => /keys|webhook|billing/.test(String(endpoint))),
  ).toEqual([]);
});

test('every read tool answers what its REST endpoint answers for the same input, charged the same credits', async ({
  request,
}) => {
  const { appId, writer, keywordId } = await trackedApp(request);
  const client = await connect(writer);
  const argumentsOf: Record<string, Record<string, unknown>> = {
    apps_list: {},
    usage_get: {},
    keywords_research: { id: appId, term: 'focus' },
    keywords_history: { id: appId, keywordId },
    keywords_metrics_history: { id: appId, keywordId },
    reviews_list: { id: appId, pageSize: 5 },
    search: { query: 'focus' },
    fetch: { id: `keyword:${keywordId}` },
  };
  // Every read with a REST twin (the docs tools have none, and are free: toolsets.integration.test.ts).
  // The replies' reads need an app a store account owns: a sandbox's sample app (owned by its simulated store
  // account), with a test key: its usage is the sandbox's own, which no other test charges meanwhile.
  const sandbox = await sandboxKey(request);
  const replies = { ...sandbox, ...(await replyDraftOf(request, sandbox.key, sandbox.appId)) };
  const repliesClient = await connect(replies.key);
  const asDemo: Record<string, Record<string, unknown>> = {
    reviews_reply_drafts: { id: replies.appId },
    reviews_reply_draft: { id: replies.appId, draftId: replies.draftId },
  };
  // An export of the account, written by the background work before the reads (its answer then stays as it is).
  const asked = await request.post(`${API}/exports`, {
    headers: bearer(writer),
    data: { datasets: ['ratings'], from: '2026-06-01', to: '2026-06-30', format: 'csv' },
  });
  expect(asked.status()).toBe(202);
  const exportId = ((await asked.json()) as { id: string }).id;
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`${API}/exports/${exportId}`, { headers: bearer(writer) })).json()) as {
            state: string;
          }
        ).state,
    )
    .toBe('completed');
  argumentsOf.exports_get = { exportId };
  argumentsOf.exports_list = {};
  const tools = (await client.listTools()).tools.filter(
    (tool) => tool.annotations?.readOnlyHint && tool._meta?.restEndpoint,
  );
  expect(tools).toHaveLength(23);
  for (const tool of tools) {
    const [caller, key, args] = asDemo[tool.name]
      ? [repliesClient, replies.key, asDemo[tool.name]!]
      : [client, writer, argumentsOf[tool.name] ?? { id: appId }];
    const before = await used(request, key);
    const result = await caller.callTool({ name: tool.name, arguments: args });
    expect(result.isError, `${tool.name}: ${JSON.stringify(result.content).slice(0, 300)}`).toBeFalsy();
    const charged = (await used(request, key)) - before;
    expect(charged, tool.name).toBe(tool._meta?.credits);
    expect((result._meta?.credits as { charged: number }).charged, tool.name).toBe(charged);
    const response = await request.get(restPathOf(String(tool._meta?.restEndpoint), args), { headers: bearer(key) });
    expect(response.status(), tool.name).toBe(200);
    expect(Number(response.headers()['x-credits-cost']), tool.name).toBe(charged);
    const answer = await response.json();
    // GET /usage counts the tool's own call and this one's lookup apart: compared as they were when each was read.
    if (tool.name === 'usage_get')
      expect(result.structuredContent).toMatchObject({
        plan: answer.plan,
        limit: answer.limit,
        periodStart: answer.periodStart,
      });
    else if (Array.isArray(answer)) {
      // A list about one app has its freshness beside its items, which REST says in headers.
      const { items, freshness } = result.structuredContent as {
        items: unknown[];
        freshness?: { dataThrough: string };
      };
      expect(items, tool.name).toEqual(answer);
      if (freshness) expect(freshness.dataThrough, tool.name).toBe(response.headers()['aso-data-through']);
    } else expect(result.structuredContent, tool.name).toEqual(answer);
  }
});

test('the write tools change what REST reads, and an idempotency key makes a repeat free', async ({ request }) => {
  const { appId, writer } = await trackedApp(request);
  const client = await connect(writer);
  const added = await client.callTool({
    name: 'keywords_add',
    arguments: { id: appId, terms: ['deep work'], idempotencyKey: 'e2e-mcp-add' },
  });
  expect(added.isError, JSON.stringify(added.content)).toBeFalsy();
  const before = await used(request, writer);
  const again = await client.callTool({
    name: 'keywords_add',
    arguments: { id: appId, terms: ['deep work'], idempotencyKey: 'e2e-mcp-add' },
  });
  expect(again.structuredContent).toEqual(added.structuredContent);
  expect(await used(request, writer)).toBe(before);
  const terms = (
    (await (await request.get(`${API}/apps/${appId}/keywords`, { headers: bearer(writer) })).json()) as {
      term: string;
    }[]
  ).map((keyword) => keyword.term);
  expect(terms).toContain('deep work');
  const competitor = await client.callTool({
    name: 'competitors_add',
    arguments: { id: appId, storeUrl: 'https://play.google.com/store/apps/details?id=com.e2e.mcp' },
  });
  expect(competitor.isError, JSON.stringify(competitor.content)).toBeFalsy();
  const competitors = (await (
    await request.get(`${API}/apps/${appId}/competitors`, { headers: bearer(writer) })
  ).json()) as { storeId: string }[];
  expect(competitors.map((each) => each.storeId)).toContain('com.e2e.mcp');
  const app = await client.callTool({
    name: 'apps_create',
    arguments: { storeUrl: 'https://apps.apple.com/us/app/sleep-well/id1500000003' },
  });
  expect(app.isError, JSON.stringify(app.content)).toBeFalsy();
  const apps = (await (await request.get(`${API}/apps`, { headers: bearer(writer) })).json()) as { id: string }[];
  expect(apps.map((each) => each.id)).toContain((app.structuredContent as { id: string }).id);
});

test('a key’s budget, then the plan’s allowance, run out mid-way: exact, each refusal a tool error that says when it resets', async ({
  request,
}) => {
  const { session, appId } = await trackedApp(request);
  const { secret } = await trpc<{ secret: string }>(session, 'apiKeys.create', {
    name: 'budget 5',
    scope: 'read-only',
    restrictions: { monthlyBudget: 5 },
  });
  const client = await connect(secret);
  const results = await Promise.all(
    Array.from({ length: 12 }, () => client.callTool({ name: 'apps_get', arguments: { id: appId } })),
  );
  expect(results.filter((result) => !result.isError)).toHaveLength(5);
  for (const refused of results.filter((result) => result.isError)) {
    expect(problemOf(refused)).toMatchObject({
      code: 'key-budget-exhausted',
      status: 402,
      keyBudget: 5,
      resetsAt: expect.any(String),
    });
  }

  const solo = await newAccount('solo');
  const soloApp = await admin(
    'app',
    'add',
    '--email',
    solo.email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const soloKey = await createKey(solo.session, 'read-only', 'allowance');
  const soloClient = await connect(soloKey);
  // 1,500 credits: 187 researches (1,496), then 4 left for a burst of 10 reads.
  for (let batch = 0; batch < 11; batch++) {
    const researches = await Promise.all(
      Array.from({ length: 17 }, () =>
        soloClient.callTool({ name: 'keywords_research', arguments: { id: soloApp, term: 'focus' } }),
      ),
    );
    for (const result of researches) expect(result.isError, JSON.stringify(result.content).slice(0, 200)).toBeFalsy();
  }
  expect(await used(request, soloKey)).toBe(1_496);
  const reads = await Promise.all(
    Array.from({ length: 10 }, () => soloClient.callTool({ name: 'apps_get', arguments: { id: soloApp } })),
  );
  expect(reads.filter((result) => !result.isError)).toHaveLength(4);
  const exhausted = problemOf(reads.find((result) => result.isError)!);
  expect(exhausted).toMatchObject({
    code: 'credits-exhausted',
    status: 402,
    creditsRemaining: 0,
    resetsAt: expect.any(String),
  });
  expect(await used(request, soloKey)).toBe(1_500);
});

test('past the key’s requests per minute: a tool error with the seconds to wait, like a 429’s Retry-After', async () => {
  const { session } = await newAccount('solo');
  const client = await connect(await createKey(session, 'read-only', 'mcp rate'));
  const results: Result[] = [];
  for (let burst = 0; burst < 7; burst++)
    results.push(
      ...(await Promise.all(Array.from({ length: 100 }, () => client.callTool({ name: 'usage_get', arguments: {} })))),
    );
  const limited = results.filter((result) => result.isError).map(problemOf);
  expect(limited.length).toBeGreaterThanOrEqual(100);
  expect(results.length - limited.length).toBeLessThanOrEqual(600);
  for (const problem of limited) {
    expect(problem).toMatchObject({ code: 'rate-limited', status: 429 });
    expect(problem.retryAfter).toBeGreaterThanOrEqual(1);
    expect(problem.retryAfter).toBeLessThanOrEqual(60);
  }
});

test('a key restricted to one app gets not-found for another, as on REST, and is offered no tool that adds an app', async ({
  request,
}) => {
  const { session, email, appId } = await trackedApp(request);
  const other = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/habit-loop/id1500000002',
  );
  const { secret } = await trpc<{ secret: string }>(session, 'apiKeys.create', {
    name: 'one app',
    scope: 'read-write',
    restrictions: { appIds: [appId] },
  });
  const client = await connect(secret);
  const before = await used(request, secret);
  const refused = problemOf(await client.callTool({ name: 'keywords_list', arguments: { id: other } }));
  const rest = await (await request.get(`${API}/apps/${other}/keywords`, { headers: bearer(secret) })).json();
  expect(refused).toMatchObject({ code: 'not-found', status: 404, detail: rest.detail });
  expect(await used(request, secret)).toBe(before);
  expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('apps_create');
});

test('a revoked key is refused on its next call', async ({ request }) => {
  const { session } = await newAccount('pro');
  const secret = await createKey(session, 'read-only', 'mcp revoked');
  const client = await connect(secret);
  expect((await client.callTool({ name: 'usage_get', arguments: {} })).isError).toBeFalsy();
  await revoke(request, session, 'mcp revoked');
  await expect(client.callTool({ name: 'usage_get', arguments: {} })).rejects.toThrow(/401/);
});

async function revoke(request: APIRequestContext, session: Session, name: string) {
  const { id } = (await trpcQuery<{ id: string; name: string }[]>(session, 'apiKeys.list')).find(
    (each) => each.name === name,
  )!;
  expect((await request.post(`${API}/keys/${id}/revoke`, { headers: bearer(session.token) })).status()).toBe(200);
}

test('malformed JSON-RPC, an unknown tool and invalid arguments get errors, never a 5xx, never a charge', async ({
  request,
}) => {
  const { session } = await newAccount('pro');
  const secret = await createKey(session, 'read-write', 'mcp bad input');
  const before = await used(request, secret);
  const post = (body: string, headers: Record<string, string> = {}) =>
    request.post(MCP, {
      headers: {
        ...bearer(secret),
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        ...headers,
      },
      data: body,
    });
  for (const body of [
    '{"jsonrpc":',
    '[]',
    '{}',
    '{"jsonrpc":"2.0","id":1}',
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":7}}',
    'x'.repeat(70_000),
  ]) {
    const response = await post(body);
    expect(response.status(), body.slice(0, 60)).toBeGreaterThanOrEqual(200);
    expect(response.status(), body.slice(0, 60)).toBeLessThan(500);
  }
  expect((await request.get(MCP, { headers: bearer(secret) })).status()).toBe(405);
  const client = await connect(secret);
  await expect(client.callTool({ name: 'keys_list', arguments: {} })).rejects.toThrow(/no tool named/);
  const invalid = await client.callTool({ name: 'keywords_add', arguments: { id: 'nope', terms: 'not a list' } });
  expect(problemOf(invalid)).toMatchObject({ code: 'validation-error', status: 400 });
  expect(await used(request, secret)).toBe(before);
});

test('/docs/mcp gives this deployment’s address and lists the tools the server lists, from the same source', async ({
  request,
}) => {
  const { session } = await newAccount('pro');
  const tools = (await (await connect(await createKey(session, 'read-write'))).listTools()).tools;
  const page = await (await request.get('/docs/mcp')).text();
  expect(page).toContain(`${baseURL}${MCP}`);
  for (const tool of tools) expect(page, tool.name).toContain(`<code>${tool.name}</code>`);
  for (const prompt of ['weekly_aso_report', 'keyword_opportunities', 'competitor_watch'])
    expect(page).toContain(prompt);
});

test('AGENTS.md and server.json name this deployment’s server, for agents and the MCP registry', async ({
  request,
}) => {
  const agents = await request.get('/docs/agents.md');
  expect(agents.status()).toBe(200);
  expect(agents.headers()['content-type']).toContain('text/markdown');
  const guide = await agents.text();
  expect(guide).toContain(`${baseURL}${MCP}`);
  expect(guide).toContain('| `GET /apps/{id}/keywords/research` | Research a keyword (live) | 8 | read |');
  const server = await request.get('/docs/mcp/server.json');
  expect(server.status()).toBe(200);
  expect(await server.json()).toMatchObject({
    $schema: expect.stringContaining('server.schema.json'),
    remotes: [{ type: 'streamable-http', url: `${baseURL}${MCP}` }],
  });
});
