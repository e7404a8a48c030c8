// Property-based fuzzing (fast-check) of every public endpoint, in-process through the same handler the route uses,
// on the real database: random path ids, query keys and values, bodies, media types, methods and header shapes,
// huge and malformed inputs. Invariants: never a 5xx; every error is application/problem+json with its status; a
// failure charges nothing; what was charged adds up to the account's usage; another account's data never appears.
// The dashboard's endpoint and the MCP server are fuzzed too (at the end).
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleDashboardTrpcRequest } from '@/server/dashboard/trpc-endpoint';
import { dashboardRouter } from '@/server/api/dashboard-router';
import { appRouter } from '@/server/api/root';
import { issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { addKeywords } from '@/server/services/apps/apps';
import { creditsUsed } from '@/server/services/metering/credits';
import { makeAccount, makeApp } from '../../../test/factories';
import { PUBLIC_API_BASE_PATH } from '@/server/operations/routes';
import { callPublicApi } from '../../../test/public-api';
import { postMcp } from '../../../test/mcp';
import { toolName } from '@/server/mcp/tools';
import { buildOperations } from '@/server/operations/routes';

const ORIGIN = 'http://fuzz.test';
const MARKER = 'zz-other-account-marker';
const QUERY_NAMES = [
  'country',
  'rankWindow',
  'sort',
  'rating',
  'sentiment',
  'limit',
  'days',
  'page',
  'pageSize',
  'term',
  'from',
  'to',
];
const routes = buildOperations(appRouter);

interface World {
  accountId: string;
  appId: string;
  keywordId: string;
  readWrite: string;
  readOnly: string;
  otherAppId: string;
  otherKeywordId: string;
  otherSecret: string;
}
let world: World;

beforeAll(async () => {
  const mine = await makeAccount('pro');
  const theirs = await makeAccount('pro');
  const app = await makeApp(mine.accountId);
  const other = await db.trackedApp.create({
    data: {
      accountId: theirs.accountId,
      store: 'app_store',
      storeId: '1999999999',
      bundleId: `com.${MARKER}`,
      name: `App ${MARKER}`,
      developer: MARKER,
      category: 'Utilities',
      primaryCountry: 'US',
    },
  });
  const added = await addKeywords(mine.accountId, { appId: app.id, terms: ['sleep sounds', 'white noise'] });
  const otherAdded = await addKeywords(theirs.accountId, { appId: other.id, terms: [`${MARKER} term`] });
  world = {
    accountId: mine.accountId,
    appId: app.id,
    keywordId: added.added[0]!.keywordId,
    readWrite: (await createApiKey(mine, { name: 'fuzz rw', scope: 'read-write' })).secret,
    readOnly: (await createApiKey(mine, { name: 'fuzz ro', scope: 'read-only' })).secret,
    otherAppId: other.id,
    otherKeywordId: otherAdded.added[0]!.keywordId,
    otherSecret: (await createApiKey(theirs, { name: 'fuzz other', scope: 'read-write' })).secret,
  };
  // One log line per request: not this test's subject.
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
});

afterAll(() => vi.restoreAllMocks());

const printable = (maxLength: number) => fc.stringMatching(new RegExp(`^[\\x20-\\x7e]{0,${maxLength}}$`));

const pathValue = () =>
  fc.oneof(
    // Own id of the parameter's kind, the other account's, or an id of the other kind (a keyword id as app id).
    { weight: 5, arbitrary: fc.constant('mine') },
    { weight: 2, arbitrary: fc.constantFrom('theirs', 'swapped') },
    { weight: 2, arbitrary: fc.uuid().map((value) => `raw:${value}`) },
    { weight: 2, arbitrary: fc.string({ maxLength: 80 }).map((value) => `raw:${value}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'raw:',
        'raw:..',
        'raw:%00',
        'raw:' + 'a'.repeat(5000),
        'raw:00000000-0000-0000-0000-000000000000',
      ),
    },
    // Sent as they are, not encoded: malformed escapes and encoded bytes that are not UTF-8.
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'asis:%',
        'asis:%E0%A4%A',
        'asis:%ED%A0%80',
        'asis:%zz',
        'asis:%C0%AF',
        'asis:a%00b',
        'asis:%2e%2e',
      ),
    },
  );

/** Text PostgreSQL cannot store or UTF-8 cannot encode: NUL and unpaired surrogates, alone or inside text. */
const unrepresentable = fc.oneof(
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '\udbff\udbff', 'ok\ud83d'),
  fc.string({ unit: 'binary', maxLength: 20 }),
);

const queryValue = fc.oneof(
  printable(30),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(
    '',
    ' ',
    '-1',
    '0',
    '1',
    '7d',
    '30d',
    '90d',
    'us',
    'GB',
    'zz',
    'newest',
    'rating',
    'negative',
    '1e9',
    '9'.repeat(400),
    'NaN',
    'null',
    '[]',
    '{}',
  ),
  fc.string({ maxLength: 3000 }),
  unrepresentable,
);

/** Appended to the query as it is: malformed escapes, encoded bytes that are not UTF-8, encoded NUL. */
const rawQuery = fc.oneof(
  { weight: 8, arbitrary: fc.constant(undefined) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'term=%',
      'term=%E0%A4%A',
      'term=%ED%A0%80',
      'country=%00',
      'days=%FF',
      '%zz=1',
      'term=a%00b',
      'sort=%C3',
    ),
  },
);

const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .record({
        terms: fc.array(fc.string({ maxLength: 120 }), { maxLength: 120 }),
        country: fc.option(printable(4), { nil: undefined }),
      })
      .map((value) => JSON.stringify(value)),
  },
  {
    weight: 2,
    arbitrary: fc.record({ storeUrl: fc.oneof(fc.webUrl(), printable(100)) }).map((value) => JSON.stringify(value)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: fc.string({ maxLength: 200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '',
      '{',
      '{"terms":',
      'null',
      '[]',
      '"x"',
      '{"id":"x"}',
      `{"terms":["${'x'.repeat(70_000)}"]}`,
      '\u0000',
      '{"__proto__":{"admin":true},"terms":["a"]}',
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        terms: fc.array(fc.oneof(unrepresentable, fc.string({ maxLength: 20 })), { minLength: 1, maxLength: 5 }),
        country: fc.option(unrepresentable, { nil: undefined }),
      })
      .map((value) => JSON.stringify(value)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '{"terms":["a\\u0000b"]}',
      '{"terms":["\\ud800x"]}',
      '{"storeUrl":"https://apps.apple.com/us/app/%E0%A4%A/id123"}',
      '{"storeUrl":"https://apps.apple.com/us/app/\\u0000/id123"}',
      '{"storeUrl":"https://play.google.com/store/apps/details?id=com.a%00b"}',
    ),
  },
);

/** Whose credential a request carries: mostly the account's read-write key; its read-only key, the other account's, none or rubbish. */
const credential = fc.oneof(
  { weight: 8, arbitrary: fc.constant('read-write') },
  { weight: 2, arbitrary: fc.constant('read-only') },
  { weight: 1, arbitrary: fc.constant('other') },
  { weight: 1, arbitrary: fc.constant('none') },
  { weight: 1, arbitrary: printable(120).map((value) => `garbage:${value}`) },
);

const request = fc.record({
  routeIndex: fc.nat({ max: routes.length - 1 }),
  // Mostly the route's own method; sometimes another one.
  otherMethod: fc.oneof(
    { weight: 7, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE') },
  ),
  pathValues: fc.array(pathValue(), { minLength: 2, maxLength: 2 }),
  query: fc.dictionary(fc.oneof(fc.constantFrom(...QUERY_NAMES), printable(20)), queryValue, { maxKeys: 4 }),
  repeatedQuery: fc.boolean(),
  rawQuery,
  body,
  contentType: fc.option(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/json',
      'application/vnd.api+json',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data; boundary=x',
      'application/x-www-form-urlencoded',
      '',
    ),
    { nil: undefined },
  ),
  credential,
  bearerShape: fc.constantFrom('Bearer ', 'bearer ', 'Bearer  ', 'BEARER '),
  idempotencyKey: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: printable(300) }),
});

function resolvePathValue(value: string, parameter: string): string {
  const keyword = parameter === 'keywordId';
  switch (value) {
    case 'mine':
      return keyword ? world.keywordId : world.appId;
    case 'theirs':
      return keyword ? world.otherKeywordId : world.otherAppId;
    case 'swapped':
      return keyword ? world.appId : world.keywordId;
    default:
      return value.startsWith('asis:') ? value.slice(5) : encodeURIComponent(value.slice(4));
  }
}

type FuzzInput = typeof request extends fc.Arbitrary<infer T> ? T : never;

function buildRequest(input: FuzzInput): { request: Request; secretOwner: 'mine' | 'other' | null } {
  const route = routes[input.routeIndex]!;
  let index = 0;
  const path = route.template.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    resolvePathValue(input.pathValues[index++ % 2]!, name),
  );
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query)) {
    search.append(name, value);
    if (input.repeatedQuery) search.append(name, value);
  }
  const query = [search.size ? String(search) : '', input.rawQuery ?? ''].filter(Boolean).join('&');
  const url = `${ORIGIN}${PUBLIC_API_BASE_PATH}${path}${query ? `?${query}` : ''}`;
  const method = input.otherMethod ?? route.method;
  const headers = new Headers();
  const secrets = { 'read-write': world.readWrite, 'read-only': world.readOnly, other: world.otherSecret } as const;
  let secretOwner: 'mine' | 'other' | null = null;
  if (input.credential in secrets) {
    headers.set('authorization', `${input.bearerShape}${secrets[input.credential as keyof typeof secrets]}`);
    secretOwner = input.credential === 'other' ? 'other' : 'mine';
  } else if (input.credential.startsWith('garbage:')) {
    headers.set('authorization', input.credential.slice(8));
  }
  if (input.contentType !== undefined) headers.set('content-type', input.contentType);
  if (input.idempotencyKey !== undefined) headers.set('idempotency-key', input.idempotencyKey);
  const hasBody = method !== 'GET';
  return { request: new Request(url, { method, headers, body: hasBody ? input.body : undefined }), secretOwner };
}

describe('fuzzing every endpoint', () => {
  it('never answers 5xx, always problem+json on error, charges only successes, never shows another account’s data', async () => {
    const usedBefore = await creditsUsed(world.accountId, new Date());
    let charged = 0;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async (input) => {
        const { request: built, secretOwner } = buildRequest(input);
        const response = await callPublicApi(built);
        const text = await response.text();
        const context = `${built.method} ${built.url} → ${response.status} ${text.slice(0, 300)}`;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, context).toBeLessThan(500);
        expect(response.headers.get('x-request-id'), context).toMatch(/^[0-9a-f-]{36}$/);
        if (response.status >= 400) {
          expect(response.headers.get('content-type'), context).toBe('application/problem+json');
          const problem = JSON.parse(text) as Record<string, unknown>;
          expect(problem.status, context).toBe(response.status);
          expect(
            typeof problem.type === 'string' && typeof problem.title === 'string' && typeof problem.detail === 'string',
            context,
          ).toBe(true);
          expect(response.headers.get('x-credits-cost') ?? '0', context).toBe('0');
        } else if (secretOwner === 'mine') {
          charged += Number(response.headers.get('x-credits-cost') ?? 0);
        }
        // The other account's marker shows only to the other account's own key.
        if (secretOwner !== 'other') expect(text.includes(MARKER), context).toBe(false);
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 1000),
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
      },
    );
    // Not vacuous: the runs reached the procedures (successes) as well as each kind of refusal.
    if (process.env.FUZZ_VERBOSE) console.log(Object.fromEntries(statuses));
    expect(statuses.get(200) ?? 0).toBeGreaterThan(40);
    for (const status of [400, 401, 403, 404, 405, 415])
      expect(statuses.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
    const usedAfter = await creditsUsed(world.accountId, new Date());
    expect(usedAfter - usedBefore).toBe(charged);
    const ledger = await db.creditLedger.aggregate({ where: { accountId: world.accountId }, _sum: { cost: true } });
    expect(ledger._sum.cost ?? 0).toBe(usedAfter);
  });
});

// The MCP server (/api/mcp), fuzzed the same way: any tool name (the tools, the settings procedures', rubbish), any
// arguments (own ids, the other account's, rubbish, unrepresentable text, idempotency keys), JSON-RPC messages of any
// shape, any credential. Invariants: never a 5xx, nor a tool error of a 5xx problem; a tool error charges nothing; what
// was charged adds up to the account's usage; another account's data never appears.
describe('fuzzing the MCP endpoint', () => {
  const TOOL_NAMES = routes.map((route) => toolName(route));
  const argument = fc.oneof(
    pathValue().map((value) => ({ kind: 'path' as const, value })),
    queryValue.map((value) => ({ kind: 'raw' as const, value })),
    fc.jsonValue({ maxDepth: 3 }).map((value) => ({ kind: 'raw' as const, value })),
  );
  const message = fc.record({
    name: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...TOOL_NAMES) }, { weight: 1, arbitrary: printable(40) }),
    args: fc.oneof(
      // Well-formed, with an id of either account or of the other kind: the calls that reach the tools' own checks.
      {
        weight: 1,
        arbitrary: fc.record({
          id: fc.constantFrom('mine', 'theirs', 'swapped').map((value) => ({ kind: 'path' as const, value })),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.dictionary(
          fc.oneof(
            fc.constantFrom('id', 'keywordId', 'terms', 'storeUrl', 'idempotencyKey', ...QUERY_NAMES),
            printable(20),
          ),
          argument,
          { maxKeys: 5 },
        ),
      },
    ),
    shape: fc.oneof(
      { weight: 8, arbitrary: fc.constant('call' as const) },
      { weight: 1, arbitrary: fc.constantFrom('list', 'batch', 'no-id', 'bad-version', 'not-an-object', 'rubbish') },
    ),
    credential,
  });

  function argumentValue(argument: { kind: 'path' | 'raw'; value: unknown }, name: string): unknown {
    if (argument.kind === 'raw') return argument.value;
    const value = argument.value as string;
    return value === 'mine' || value === 'theirs' || value === 'swapped'
      ? resolvePathValue(value, name)
      : value.slice(value.indexOf(':') + 1);
  }

  function payloadOf(input: typeof message extends fc.Arbitrary<infer T> ? T : never): unknown {
    const args = Object.fromEntries(
      Object.entries(input.args).map(([name, value]) => [name, argumentValue(value, name)]),
    );
    const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: input.name, arguments: args } };
    switch (input.shape) {
      case 'call':
        return call;
      case 'list':
        return { jsonrpc: '2.0', id: 7, method: 'tools/list' };
      case 'batch':
        return [call, call];
      case 'no-id':
        return { ...call, id: undefined };
      case 'bad-version':
        return { ...call, jsonrpc: '1.0' };
      case 'not-an-object':
        return JSON.stringify(args);
      default:
        return `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":${JSON.stringify(args).slice(0, -1)}`;
    }
  }

  it('never answers 5xx, charges only successful tool calls, never shows another account’s data', async () => {
    const usedBefore = await creditsUsed(world.accountId, new Date());
    let charged = 0;
    const outcomes = new Map<string, number>();
    const secrets = { 'read-write': world.readWrite, 'read-only': world.readOnly, other: world.otherSecret } as const;
    await fc.assert(
      fc.asyncProperty(message, async (input) => {
        const secret = secrets[input.credential as keyof typeof secrets];
        const authorization = secret
          ? `Bearer ${secret}`
          : input.credential.startsWith('garbage:')
            ? input.credential.slice(8)
            : null;
        const answer = await postMcp(ORIGIN, authorization, payloadOf(input));
        const context = `${input.credential} ${JSON.stringify(payloadOf(input)).slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
        expect(answer.status, context).toBeLessThan(500);
        const result = answer.body?.result as
          | { isError?: boolean; content?: { text: string }[]; _meta?: { credits?: { charged: number } } }
          | undefined;
        const outcome = result
          ? result.isError
            ? `tool error ${JSON.parse(result.content![0]!.text).status}`
            : 'tool result'
          : answer.body?.error
            ? 'protocol error'
            : `http ${answer.status}`;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (result?.isError) {
          expect(JSON.parse(result.content![0]!.text).status, context).toBeLessThan(500);
          expect(result._meta?.credits?.charged, context).toBe(0);
        } else if (result?._meta?.credits && input.credential !== 'other') {
          charged += result._meta.credits.charged;
        }
        if (input.credential !== 'other') expect(answer.text.includes(MARKER), context).toBe(false);
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 600),
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
      },
    );
    if (process.env.FUZZ_VERBOSE) console.log(Object.fromEntries(outcomes));
    // Not vacuous: tools ran, and each kind of refusal was met.
    expect(outcomes.get('tool result') ?? 0).toBeGreaterThan(20);
    for (const outcome of ['tool error 400', 'tool error 404', 'protocol error', 'http 401'])
      expect(outcomes.get(outcome) ?? 0, outcome).toBeGreaterThan(0);
    const usedAfter = await creditsUsed(world.accountId, new Date());
    expect(usedAfter - usedBefore).toBe(charged);
  });
});

// The dashboard's endpoint (/api/trpc), fuzzed the same way: any procedure name (the dashboard's, the API-only ones,
// rubbish), single or batched, GET or POST, any input (unrepresentable text included), any cookie.
// Invariants: never a 5xx; an API-only procedure is never served; nothing is charged (the dashboard spends no
// credits); another account's data never appears.
describe('fuzzing the dashboard endpoint', () => {
  const DASHBOARD_PATHS = Object.keys(dashboardRouter._def.procedures as object);
  const API_ONLY = ['keywords.research', 'keywords.metricsHistory'];
  let cookie: string;

  beforeAll(async () => {
    const user = await db.user.findFirstOrThrow({ where: { accountId: world.accountId } });
    cookie = `next-auth.session-token=${await issueSessionToken({ id: user.id, email: user.email, accountId: world.accountId })}`;
  });

  /** A plausible input per procedure, so that a good share of calls reach the procedure itself. */
  const SAMPLES: Record<string, unknown> = {
    'usage.get': {},
    'apps.list': {},
    'apps.get': { id: 'mine' },
    'apps.asoScore': { id: 'mine' },
    'keywords.list': { id: 'mine' },
    'keywords.history': { id: 'mine', keywordId: 'mine' },
    'reviews.list': { id: 'theirs' },
    'apiKeys.create': { name: 'fuzz', scope: 'read-only' },
    'webhooks.create': { url: 'https://127.0.0.1/hook' },
    'account.signUp': { email: 'fuzz@example.test', password: 'correct horse battery' },
    'account.onboarding': undefined,
    'billing.overview': undefined,
    'apps.create': { storeUrl: 'https://apps.apple.com/us/app/fuzz/id1000000099' },
    'apps.searchStore': { term: 'sleep', country: 'US' },
    'apps.addStorefront': { id: 'mine', country: 'GB' },
    'apps.removeStorefront': { id: 'mine', country: 'GB' },
    'keywords.add': { id: 'mine', terms: ['fuzz'] },
    'competitors.list': { id: 'mine' },
    'competitors.add': { id: 'mine', storeUrl: 'https://apps.apple.com/us/app/fuzz-rival/id1000000098' },
    'apps.opportunities': { id: 'mine' },
    'apps.keywordSpy': { id: 'mine' },
    'apps.categoryRank': { id: 'theirs' },
    'apps.ratingHistory': { id: 'mine' },
    'metadata.get': { id: 'mine' },
    'metadata.changelog': { id: 'theirs' },
    'reviews.insights': { id: 'mine' },
    'keywords.recentRanks': { id: 'mine' },
    'keywords.room': {},
    'usage.ledger': {},
  };
  /** Removals never get the world's own ids: they would take away what the other calls read. */
  const REMOVALS = ['apps.remove', 'keywords.remove', 'competitors.remove'];
  const input = fc.oneof(
    { weight: 5, arbitrary: fc.constant('sample') },
    {
      weight: 3,
      arbitrary: fc.record(
        {
          id: fc.constantFrom('mine', 'theirs', 'nonsense'),
          keywordId: fc.constantFrom('mine', 'theirs'),
          endpointId: fc.uuid(),
          name: fc.oneof(unrepresentable, printable(30)),
          scope: fc.constantFrom('read-only', 'read-write', 'admin'),
          term: unrepresentable,
        },
        { requiredKeys: [] },
      ),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  const call = fc.record({
    // A comma separates a batch's paths: one inside a name would shift the answers against the names.
    paths: fc.array(
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...DASHBOARD_PATHS) },
        { weight: 1, arbitrary: fc.constantFrom(...API_ONLY) },
        { weight: 1, arbitrary: printable(20).filter((name) => !name.includes(',')) },
      ),
      { minLength: 1, maxLength: 12 },
    ),
    batch: fc.oneof({ weight: 3, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constant('by type') },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'POST') },
    ),
    input,
    signedIn: fc.oneof(
      { weight: 5, arbitrary: fc.constant('yes') },
      { weight: 1, arbitrary: fc.constantFrom('no', 'garbage') },
    ),
    crossSite: fc.oneof({ weight: 6, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  });

  const resolved = (value: unknown, path: string): unknown =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value).map(([name, member]) => [
            name,
            member === 'mine' && REMOVALS.includes(path)
              ? randomUUID()
              : member === 'mine'
                ? name === 'keywordId'
                  ? world.keywordId
                  : world.appId
                : member === 'theirs'
                  ? name === 'keywordId'
                    ? world.otherKeywordId
                    : world.otherAppId
                  : member,
          ]),
        )
      : value;

  it('never answers 5xx, never serves an API-only procedure, charges nothing, never shows another account’s data', async () => {
    const ledgerBefore = await db.creditLedger.count({ where: { accountId: world.accountId } });
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(call, async (generated) => {
        const paths = generated.batch ? generated.paths : generated.paths.slice(0, 1);
        // A batch's calls share one input: a removal among them makes it one no call may remove with.
        const removal = paths.find((path) => REMOVALS.includes(path)) ?? paths[0]!;
        const value = resolved(generated.input === 'sample' ? SAMPLES[paths[0]!] : generated.input, removal);
        const type = (
          dashboardRouter._def.procedures as unknown as Record<string, { _def: { type: string } } | undefined>
        )[paths[0]!]?._def.type;
        const method = generated.method === 'by type' ? (type === 'mutation' ? 'POST' : 'GET') : generated.method;
        const headers: Record<string, string> = {};
        if (generated.signedIn === 'yes') headers.cookie = cookie;
        if (generated.signedIn === 'garbage')
          headers.cookie = 'next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..x.y.z';
        if (generated.crossSite) headers.origin = 'https://evil.example';
        const payload = generated.batch ? Object.fromEntries(paths.map((_, index) => [index, value])) : value;
        const target = `${ORIGIN}/api/trpc/${paths.map(encodeURIComponent).join(',')}${generated.batch ? '?batch=1' : ''}`;
        const request =
          method === 'GET'
            ? new Request(
                `${target}${generated.batch ? '&' : '?'}input=${encodeURIComponent(JSON.stringify(payload) ?? '')}`,
                { headers },
              )
            : new Request(target, {
                method: 'POST',
                headers: { ...headers, 'content-type': 'application/json' },
                body: JSON.stringify(payload) ?? '',
              });
        const response = await handleDashboardTrpcRequest(request);
        const text = await response.text();
        const context = `${method} ${target} ${JSON.stringify(payload)?.slice(0, 200)} → ${response.status} ${text.slice(0, 300)}`;
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, context).toBeLessThan(500);
        expect(text.includes(MARKER), context).toBe(false);
        // A single call of an API-only procedure is not found, whoever asks (a batch answers 207 or 400, each
        // call with its own error).
        if (!generated.batch && API_ONLY.includes(paths[0]!) && !generated.crossSite)
          expect(response.status, context).toBe(404);
        if (generated.batch && response.status < 400) {
          const answers = JSON.parse(text) as { error?: { data?: { code?: string } } }[];
          paths.forEach((path, index) => {
            if (API_ONLY.includes(path)) expect(answers[index]?.error?.data?.code, context).toBe('NOT_FOUND');
          });
        }
      }),
      {
        numRuns: Number(process.env.FUZZ_RUNS ?? 1000) / 2,
        seed: process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined,
      },
    );
    if (process.env.FUZZ_VERBOSE) console.log(Object.fromEntries(statuses));
    // Floors that show the generated calls reach real answers, well under what a run gets (about 55 successes in
    // 500 runs, 38 in the unluckiest seen): the seed changes every run.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(25);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(20);
    expect(await db.creditLedger.count({ where: { accountId: world.accountId } })).toBe(ledgerBefore);
  });
});
