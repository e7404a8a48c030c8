// Response conformance: for every endpoint, real answers of the REST pipeline (a success and each error kind it can
// give: 400, 401, 402, 403, 404, 413, 415, 422, 429, and each error test mode gives on demand) validate against the published document with ajv (JSON Schema
// 2020-12, as OpenAPI 3.1 uses): the status is documented, the body matches its schema, the media type is the
// documented one and every documented header is set. 500 needs a failing database: pipeline.integration.test.ts checks its
// shape; 503 (a database outage) is produced for real by e2e/api/database-restart.spec.ts and recognised from real
// driver errors in src/server/db/errors.integration.test.ts.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { db } from '@/server/db';
import { createAccount } from '@/server/services/accounts/accounts';
import { changePlan } from '@/server/services/accounts/plan-changes';
import { endExpiredTrials } from '@/server/services/accounts/trials';
import { issueSessionToken } from '@/server/auth/session-token';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { createWebhookEndpoint, sendTestEvent } from '@/server/services/webhooks/endpoints';
import { periodOf } from '@/server/services/metering/credits';
import { makeAccount } from '../../../test/factories';
import { makeAsoApp } from '../../../test/aso-fixture';
import { buildOpenApiDocument } from '@/server/contract/document';
import { API_VERSIONS, LATEST_VERSION, type ApiVersion } from '@/server/domain/api-versions';
import { callPublicApi } from '../../../test/public-api';
import { buildOperations, type Operation as Route } from '@/server/operations/routes';
import { addKeywords } from '@/server/services/apps/apps';
import { addCompetitor } from '@/server/services/aso/competitors';
import { refreshApp } from '@/server/services/ingest/refresh';
import { GooglePlayProvider } from '@/server/services/ingest/stores/google-play/google-play-provider';
import { replyFixture } from '../../../test/reply-fixture';
import { exportFixture } from '../../../test/export-fixture';
import { createStoreGate } from '@/server/services/ingest/stores/store-calls';
import { StoresProvider } from '@/server/services/ingest/stores/stores-provider';
import { GOOGLE_PLAY_PLAN, recordedPlayClient, recordedPlayDays } from '../../../test/stores/recorded-google-play';
import { successStatus } from '@/server/api/trpc';

const ORIGIN = 'http://api.test';
type DocumentedResponse = {
  headers?: Record<string, { $ref: string }>;
  content: Record<string, { schema: object; examples?: Record<string, { value: unknown }> }>;
};
type Operation = { responses: Record<string, DocumentedResponse & { $ref?: string }> };
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, DocumentedResponse> };
  webhooks: Record<string, { post: { requestBody: DocumentedResponse } }>;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
/** Each dated version's document, as `GET /openapi.json?version=` serves it. */
const documents = Object.fromEntries(
  API_VERSIONS.map((version) => {
    const built = buildOpenApiDocument(ORIGIN, version) as Document;
    ajv.addSchema(built, `openapi-${version}.json`);
    return [version, built];
  }),
) as Record<ApiVersion, Document>;
const document = documents[LATEST_VERSION];

const escapePointer = (segment: string) =>
  segment.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D');
/** A `#/…` reference of a version's document, followed. */
function resolve<T>(ref: string, version: ApiVersion = LATEST_VERSION): T {
  return ref
    .slice(2)
    .split('/')
    .reduce<unknown>(
      (value, segment) => (value as Record<string, unknown>)[segment.replaceAll('~1', '/').replaceAll('~0', '~')],
      documents[version],
    ) as T;
}
/** The validator of the schema at a JSON pointer of a version's document. */
function validatorAt(pointer: string, version: ApiVersion = LATEST_VERSION) {
  const ref = `openapi-${version}.json#${pointer}`;
  return ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
}

const routes = buildOperations(appRouter);
const BODIES: Record<string, unknown> = {
  'POST /apps/{id}/keywords': { terms: ['calm breathing'] },
  'POST /apps/{id}/competitors': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
  'POST /apps': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
  'POST /keys': { name: 'conformance made', scope: 'read-only' },
  'PATCH /keys/{keyId}': { name: 'conformance renamed', restrictions: { monthlyBudget: 100 } },
  'POST /keys/{keyId}/roll': { gracePeriod: '1h' },
  'POST /keys/{keyId}/revoke': {},
  'POST /webhook-endpoints': { url: 'http://127.0.0.1:9/conformance' },
  'PATCH /webhook-endpoints/{endpointId}': { description: 'conformance', enabled: true },
  'POST /webhook-endpoints/{endpointId}/rotate-secret': {},
  'POST /webhook-endpoints/{endpointId}/test-events': {},
  'POST /webhook-deliveries/{deliveryId}/redeliver': {},
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts': { body: 'Thank you for the review!' },
  'POST /exports': { datasets: ['ratings'], from: '2026-06-01', to: '2026-06-30', format: 'csv' },
};
const QUERIES: Record<string, string> = { '/apps/{id}/keywords/research': '?term=sleep', '/search': '?query=sleep' };

let ids: {
  id: string;
  keywordId: string;
  keyId: string;
  endpointId: string;
  deliveryId: string;
  reviewId: string;
  draftId: string;
  exportId: string;
};
/** Puts the reply draft the sweep approves and discards back to drafted, before each such call. */
let redraft: () => Promise<void>;
/** Puts the exports back as each call expects them (test/export-fixture.ts). */
let resetExports: (operation: string) => Promise<void>;
let keys: {
  pro: string;
  readOnly: string;
  exhausted: string;
  free: string;
  elsewhere: string;
  budgetSpent: string;
  session: string;
  test: string;
};
let owner: Awaited<ReturnType<typeof makeAccount>>;

beforeAll(async () => {
  const made = await makeAsoApp();
  const { app } = made;
  owner = made.owner;
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
  // The settings endpoints' own ids: a key, an endpoint on this machine (allowed for the tests), a delivery.
  process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST = 'true';
  const managed = await createApiKey(owner, { name: 'conformance managed', scope: 'read-only' });
  const { endpoint } = await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/conformance-shared' });
  const { deliveryId } = await sendTestEvent(owner, endpoint.id);
  const replies = await replyFixture(owner, app.id);
  redraft = replies.redraft;
  const exported = await exportFixture(owner.accountId);
  resetExports = exported.beforeCall;
  ids = {
    id: app.id,
    keywordId: keyword.id,
    keyId: managed.key.id,
    endpointId: endpoint.id,
    deliveryId,
    reviewId: replies.reviewId,
    draftId: replies.draftId,
    exportId: exported.exportId,
  };
  keys = {
    pro: (await createApiKey(owner, { name: 'conformance', scope: 'read-write' })).secret,
    readOnly: (await createApiKey(owner, { name: 'conformance ro', scope: 'read-only' })).secret,
    exhausted: '',
    free: '',
    elsewhere: (
      await createApiKey(owner, {
        name: 'conformance elsewhere',
        scope: 'read-write',
        restrictions: { allowedCidrs: ['192.0.2.0/24'] },
      })
    ).secret,
    budgetSpent: '',
    session: await sessionOf(owner.accountId),
    test: (
      await createApiKey(
        { accountId: await sandboxOf(owner.accountId), userId: owner.userId },
        { name: 'conformance test mode', scope: 'read-write' },
      )
    ).secret,
  };
  const budgeted = await createApiKey(owner, {
    name: 'conformance budget',
    scope: 'read-write',
    restrictions: { monthlyBudget: 1 },
  });
  await db.keyCreditUsage.create({
    data: { keyId: budgeted.key.id, periodStart: periodOf(new Date()).start, used: 1 },
  });
  keys.budgetSpent = budgeted.secret;
  const spent = await makeAccount('solo');
  await db.creditUsage.create({
    data: { accountId: spent.accountId, periodStart: periodOf(new Date()).start, used: 1500 },
  });
  keys.exhausted = (await createApiKey(spent, { name: 'spent', scope: 'read-write' })).secret;
  const free = await makeAccount('solo');
  keys.free = (await createApiKey(free, { name: 'to be free', scope: 'read-write' })).secret;
  await db.account.update({ where: { id: free.accountId }, data: { plan: 'free' } });
});

afterAll(() => {
  delete process.env.WEBHOOKS_ALLOW_HTTP_LOCALHOST;
});

async function sessionOf(accountId: string): Promise<string> {
  const user = await db.user.findFirstOrThrow({ where: { accountId } });
  return issueSessionToken({ id: user.id, email: user.email, accountId });
}

/**
 * The path of a settings endpoint's successful call: what a call uses up (a key rolls once, an endpoint is deleted
 * once) is made anew for it.
 */
async function settingsPath(route: Route): Promise<string> {
  if (route.template === '/keys/{keyId}/roll')
    return pathOf(route, {
      keyId: (await createApiKey(owner, { name: 'conformance to roll', scope: 'read-only' })).key.id,
    });
  if (route.method === 'DELETE')
    return pathOf(route, {
      endpointId: (await createWebhookEndpoint(owner.accountId, { url: 'http://127.0.0.1:9/conformance-gone' }))
        .endpoint.id,
    });
  return pathOf(route);
}

/** Ids a path takes in another form than a bare uuid: fetch's are `app:<uuid>` or `keyword:<uuid>`. */
const ID_FORMS: Record<string, (id: string) => string> = { '/search/{id}': (id) => `app:${id}` };

function pathOf(route: Route, overrides: Partial<typeof ids> = {}): string {
  const values = { ...ids, ...overrides };
  const form = ID_FORMS[route.template];
  return (
    route.template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) =>
      form && values[name] !== 'not-a-uuid' ? form(values[name]) : values[name],
    ) + (QUERIES[route.template] ?? '')
  );
}

async function call(
  route: Route,
  options: {
    key?: string | null;
    path?: string;
    body?: string;
    contentType?: string;
    idempotencyKey?: string;
    extraHeaders?: Record<string, string>;
  } = {},
) {
  if (/\/reply-drafts\/\{draftId\}\/(approve|discard)$/.test(route.template)) await redraft();
  await resetExports(`${route.method} ${route.template}`);
  const headers: Record<string, string> = { ...options.extraHeaders };
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  // The settings endpoints take the owner's session token; every other endpoint, the Pro key.
  if (options.key !== null)
    headers.Authorization = `Bearer ${options.key ?? (route.meta.scope === 'admin' ? keys.session : keys.pro)}`;
  let body: string | undefined;
  if (route.method !== 'GET') {
    headers['Content-Type'] = options.contentType ?? 'application/json';
    body = options.body ?? JSON.stringify(BODIES[`${route.method} ${route.template}`]);
  }
  return callPublicApi(
    new Request(`${ORIGIN}/api/public/v1${options.path ?? pathOf(route)}`, { method: route.method, headers, body }),
  );
}

async function expectConforms(route: Route, response: Response, status: number, version = LATEST_VERSION) {
  const label = `${route.method} ${route.template} → ${status} (${version})`;
  expect(response.status, label).toBe(status);
  if (status < 300) expect(response.headers.get('aso-version'), label).toBe(version);
  const operation = documents[version].paths[route.template]![route.method.toLowerCase()]!;
  const declared = operation.responses[String(status)];
  expect(declared, `${label} is not documented`).toBeDefined();
  // A shared response is validated where it is declared, in components.
  const [base, documented] = declared!.$ref
    ? [declared!.$ref.slice(1), resolve<DocumentedResponse>(declared!.$ref, version)]
    : [`/paths/${escapePointer(route.template)}/${route.method.toLowerCase()}/responses/${status}`, declared!];
  const [mediaType] = Object.keys(documented.content);
  expect(response.headers.get('content-type'), label).toBe(mediaType);
  const validate = validatorAt(`${base}/content/${escapePointer(mediaType!)}/schema`, version);
  const body: unknown = await response.json();
  expect(validate(body) ? [] : validate.errors, label).toEqual([]);
  for (const [header, reference] of Object.entries(documented.headers ?? {})) {
    // Link only when there is a page to link (a list asked for whole has none); X-Test-Mode in test mode only.
    const optional =
      header === 'Idempotent-Replayed' ||
      header === 'WWW-Authenticate' ||
      header === 'Retry-After' ||
      header === 'Link' ||
      header === 'X-Test-Mode' ||
      header === 'Aso-Storefront';
    const value = response.headers.get(header);
    if (!optional) expect(value, `${label}: header ${header}`).not.toBeNull();
    if (value === null) continue;
    // Each header's value is of its documented type: an integer header is a decimal integer, a string one matches.
    const schema = resolve<{ schema: { type: string } }>(reference.$ref, version).schema;
    const checkHeader = validatorAt(`${reference.$ref.slice(1)}/schema`, version);
    expect(
      checkHeader(schema.type === 'integer' ? Number(value) : value) ? [] : [header, value, checkHeader.errors],
      label,
    ).toEqual([]);
  }
}

it('every example in the document (answers, problems, webhook events) is valid against its schema', () => {
  const media = [
    ...Object.entries(document.components.responses).map(([name, response]) => ({
      at: `/components/responses/${name}`,
      response,
    })),
    ...Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, operation]) =>
        Object.entries(operation.responses)
          .filter(([, response]) => !response.$ref)
          .map(([status, response]) => ({
            at: `/paths/${escapePointer(path)}/${method}/responses/${status}`,
            response,
          })),
      ),
    ),
    // What the service sends to webhook endpoints.
    ...Object.entries(document.webhooks).map(([kind, item]) => ({
      at: `/webhooks/${escapePointer(kind)}/post/requestBody`,
      response: item.post.requestBody,
    })),
  ].flatMap(({ at, response }) =>
    Object.entries(response.content).map(([type, content]) => ({
      at: `${at}/content/${escapePointer(type)}`,
      content,
    })),
  );
  let checked = 0;
  for (const { at, content } of media) {
    const validate = validatorAt(`${at}/schema`);
    for (const [name, example] of Object.entries(content.examples ?? {})) {
      checked++;
      expect(validate(example.value) ? [] : validate.errors, `${at} example ${name}`).toEqual([]);
    }
  }
  expect(checked).toBeGreaterThan(0);
});

describe('responses conform to the published document', () => {
  for (const route of routes) {
    it(`${route.method} ${route.template}`, async () => {
      const admin = route.meta.scope === 'admin';
      await expectConforms(
        route,
        await call(route, admin ? { path: await settingsPath(route) } : {}),
        successStatus(route.meta),
      );
      await expectConforms(route, await call(route, { key: null }), 401);
      await expectConforms(route, await call(route, { key: 'svc_live_not-a-key' }), 401);
      for (const name of route.pathParameters) {
        await expectConforms(route, await call(route, { path: pathOf(route, { [name]: randomUUID() }) }), 404);
        await expectConforms(route, await call(route, { path: pathOf(route, { [name]: 'not-a-uuid' }) }), 400);
      }
      // The allowance is checked before the lookup (CONTRACT's pipeline): a spent account gets 402 whatever the id.
      if ((route.meta.credits ?? 0) > 0)
        await expectConforms(
          route,
          await call(route, { key: keys.exhausted, path: pathOf(route, { id: randomUUID() }) }),
          402,
        );
      await expectConforms(route, await call(route, { key: keys.free }), 403);
      // A key's own restrictions: its addresses (every endpoint), its spent budget (every charged one).
      await expectConforms(route, await call(route, { key: keys.elsewhere }), 403);
      if ((route.meta.credits ?? 0) > 0) await expectConforms(route, await call(route, { key: keys.budgetSpent }), 402);
      // No key manages keys or webhook endpoints, whatever its scope.
      if (admin) await expectConforms(route, await call(route, { key: keys.pro }), 403);
      if (route.meta.scope === 'write') await expectConforms(route, await call(route, { key: keys.readOnly }), 403);
      if (route.method !== 'GET') {
        await expectConforms(route, await call(route, { contentType: 'text/plain' }), 415);
        await expectConforms(route, await call(route, { body: '{"terms": [' }), 400);
        await expectConforms(
          route,
          await call(route, { body: JSON.stringify({ terms: ['x'.repeat(70 * 1024)] }) }),
          413,
        );
      }
      if (route.method === 'POST') {
        const idempotencyKey = randomUUID();
        const path = admin ? await settingsPath(route) : pathOf(route);
        await expectConforms(route, await call(route, { idempotencyKey, path }), successStatus(route.meta));
        await expectConforms(
          route,
          await call(route, {
            idempotencyKey,
            path,
            body: JSON.stringify({
              terms: ['another term'],
              storeUrl: 'https://apps.apple.com/us/app/headspace/id493145008',
            }),
          }),
          422,
        );
      }
    });
  }
});

// Each dated version's answers against its own document (`GET /openapi.json?version=`): the same call, shaped by the
// version the request names, validates where that version documents it.
describe('each dated version’s answers conform to its own document', () => {
  for (const version of API_VERSIONS)
    it(version, async () => {
      for (const route of routes.filter((route) => route.method === 'GET')) {
        const admin = route.meta.scope === 'admin';
        const answer = await call(route, {
          path: admin ? await settingsPath(route) : pathOf(route),
          extraHeaders: { 'Aso-Version': version },
        });
        await expectConforms(route, answer, 200, version);
      }
    });
});

// Test mode's errors on demand (X-Test-Trigger) are the live errors: on every endpoint, each validates as documented.
// The settings endpoints take a session token in test mode (X-Test-Mode: true), the others a test key.
describe('errors asked for in test mode conform to the published document', () => {
  const TRIGGERS = [
    ['credits-exhausted', 402],
    ['key-budget-exhausted', 402],
    ['rate-limited', 429],
    ['store-unavailable', 503],
    ['validation-error', 400],
    ['not-found', 404],
  ] as const;
  for (const route of routes) {
    it(`${route.method} ${route.template}`, async () => {
      const admin = route.meta.scope === 'admin';
      for (const [trigger, status] of TRIGGERS) {
        const response = await call(route, {
          key: admin ? keys.session : keys.test,
          path: pathOf(route),
          extraHeaders: { 'X-Test-Trigger': trigger, ...(admin && { 'X-Test-Mode': 'true' }) },
        });
        expect(response.headers.get('x-test-mode'), `${trigger} → ${route.method} ${route.template}`).toBe('true');
        await expectConforms(route, response, status);
      }
    });
  }
});

describe('a Google Play app’s answers conform too (the stores provider on recorded answers)', () => {
  it('for every read of an app', async () => {
    const app = await db.trackedApp.create({
      data: {
        accountId: owner.accountId,
        store: 'google_play',
        storeId: GOOGLE_PLAY_PLAN.appId,
        bundleId: GOOGLE_PLAY_PLAN.appId,
        name: 'Calm',
        developer: 'Calm.com, Inc.',
        category: 'Health & Fitness',
        primaryCountry: GOOGLE_PLAY_PLAN.country,
      },
    });
    await addKeywords(owner.accountId, { appId: app.id, terms: GOOGLE_PLAY_PLAN.terms });
    await addCompetitor(owner.accountId, {
      appId: app.id,
      storeUrl: `https://play.google.com/store/apps/details?id=${GOOGLE_PLAY_PLAN.competitorId}`,
    });
    const gate = createStoreGate(
      'google_play',
      { callsPerMinute: 60, concurrency: 1, timeoutMs: 1_000, retries: 0, minBackoffMs: 1, maxBackoffMs: 1 },
      async () => 0,
    );
    for (const day of recordedPlayDays().slice(-2)) {
      const provider = new StoresProvider({ google_play: new GooglePlayProvider(recordedPlayClient(day), gate) });
      expect((await refreshApp(app.id, { provider, through: new Date(`${day}T00:00:00Z`) })).failures).toEqual([]);
    }
    const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
    const replies = await replyFixture(owner, app.id, 'google_play');
    const reads = routes.filter(
      (route) =>
        route.method === 'GET' &&
        route.template.startsWith('/apps/{id}') &&
        route.template !== '/apps/{id}/keywords/research',
    );
    expect(reads.length).toBeGreaterThan(10);
    for (const route of reads)
      await expectConforms(
        route,
        await call(route, {
          path: pathOf(route, {
            id: app.id,
            keywordId: keyword.id,
            reviewId: replies.reviewId,
            draftId: replies.draftId,
          }),
        }),
        200,
      );
  });
});

it('answers 429 as documented once a key passes its requests per minute', async () => {
  const owner = await makeAccount('solo');
  const { secret } = await createApiKey(owner, { name: 'busy', scope: 'read-only' });
  const usage = routes.find((route) => route.template === '/usage')!;
  let response: Response | undefined;
  for (let count = 0; count <= 600 && response?.status !== 429; count++) response = await call(usage, { key: secret });
  await expectConforms(usage, response!, 429);
  expect(Number(response!.headers.get('retry-after'))).toBeGreaterThan(0);
}, 180_000);

describe('self-serve additions (CONTRACT "Additions in v1")', () => {
  const route = (method: string, template: string) =>
    routes.find((candidate) => candidate.method === method && candidate.template === template)!;
  const createApp = () => route('POST', '/apps');
  /** Checks the answer against the document and returns its body. */
  const conforming = async (target: Route, response: Response, status: number) => {
    const body = await response.clone().json();
    await expectConforms(target, response, status);
    return body;
  };
  const post = (key: string, path: string, body: unknown, clock?: () => Date) =>
    callPublicApi(
      new Request(`${ORIGIN}/api/public/v1${path}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
      clock,
    );

  it('POST /apps adds an app once (created, then created: false), and refuses a store URL of another shape', async () => {
    const owner = await makeAccount('solo');
    const { secret } = await createApiKey(owner, { name: 'apps', scope: 'read-write' });
    const storeUrl = `https://play.google.com/store/apps/details?id=com.conformance.app${randomUUID().slice(0, 8).replaceAll('-', '')}`;
    const first = await post(secret, '/apps', { storeUrl, country: 'de' });
    const firstBody = await conforming(createApp(), first, 200);
    expect(firstBody).toMatchObject({
      created: true,
      store: 'google_play',
      primaryCountry: 'DE',
      storefronts: ['DE'],
      dataThrough: null,
      backfill: { status: 'queued', daysDone: 0, daysTotal: 180 },
    });
    expect(first.headers.get('x-credits-cost')).toBe('2');
    const again = await post(secret, '/apps', { storeUrl });
    expect(await conforming(createApp(), again, 200)).toMatchObject({ id: firstBody.id, created: false });
    expect(await db.trackedApp.count({ where: { accountId: owner.accountId } })).toBe(1);

    const wrong = await post(secret, '/apps', { storeUrl: 'https://example.com/app/1' });
    await expectConforms(createApp(), wrong, 400);
    expect(wrong.headers.get('x-credits-cost')).toBe('0');
    await expectConforms(createApp(), await post(secret, '/apps', { storeUrl, extra: true }), 400);
  });

  it('a plan’s caps refuse with 403 limit-reached naming the cap, store nothing and cost nothing', async () => {
    const owner = await makeAccount('solo');
    const { secret } = await createApiKey(owner, { name: 'caps', scope: 'read-write' });
    const appIds: string[] = [];
    for (let index = 0; index < 3; index++) {
      const answer = await post(secret, '/apps', {
        storeUrl: `https://apps.apple.com/us/app/cap-${index}/id${9_000_000_000 + index}`,
      });
      expect(answer.status).toBe(200);
      appIds.push((await answer.json()).id);
    }
    const refused = await post(secret, '/apps', { storeUrl: 'https://apps.apple.com/us/app/cap-3/id9000000003' });
    expect(await conforming(createApp(), refused, 403)).toMatchObject({
      code: 'limit-reached',
      cap: 'tracked-apps',
      limit: 3,
    });
    expect(refused.headers.get('x-credits-cost')).toBe('0');
    expect(await db.trackedApp.count({ where: { accountId: owner.accountId } })).toBe(3);

    // Keywords: 200 over all the account's apps; a request that would pass it adds none.
    const addKeywords = route('POST', '/apps/{id}/keywords');
    const terms = (from: number, count: number) => Array.from({ length: count }, (_, index) => `term ${from + index}`);
    expect((await post(secret, `/apps/${appIds[0]}/keywords`, { terms: terms(0, 100) })).status).toBe(200);
    expect((await post(secret, `/apps/${appIds[1]}/keywords`, { terms: terms(100, 90) })).status).toBe(200);
    const over = await post(secret, `/apps/${appIds[2]}/keywords`, { terms: terms(190, 11) });
    expect(await conforming(addKeywords, over, 403)).toMatchObject({
      code: 'limit-reached',
      cap: 'tracked-keywords',
      limit: 200,
    });
    expect(await db.trackedKeyword.count({ where: { appId: appIds[2] } })).toBe(0);
    expect((await post(secret, `/apps/${appIds[2]}/keywords`, { terms: terms(190, 10) })).status).toBe(200);
  }, 180_000);

  it('a trial: its own allowance in the credit headers and GET /usage; at its end, Free and a plan.changed event', async () => {
    const start = new Date();
    const { accountId, userId } = await createAccount(
      { email: `trial-${randomUUID()}@example.test`, password: 'correct horse battery', plan: 'free' },
      { withTrial: true, now: start },
    );
    const { secret } = await createApiKey({ accountId, userId }, { name: 'trial', scope: 'read-only' });
    const usage = route('GET', '/usage');
    const during = () => new Date(start.getTime() + 13 * 86_400_000);
    const response = await callPublicApi(
      new Request(`${ORIGIN}/api/public/v1/usage`, { headers: { Authorization: `Bearer ${secret}` } }),
      during,
    );
    expect(response.headers.get('x-credits-limit')).toBe('100');
    expect(await conforming(usage, response, 200)).toMatchObject({
      plan: 'solo',
      limit: 100,
      trial: { tier: 'solo', credits: 100, endsAt: new Date(start.getTime() + 14 * 86_400_000).toISOString() },
    });

    // Past its end the account is Free at once, before the job has run; the job then records the change once.
    const after = () => new Date(start.getTime() + 14 * 86_400_000 + 1000);
    const refused = await callPublicApi(
      new Request(`${ORIGIN}/api/public/v1/usage`, { headers: { Authorization: `Bearer ${secret}` } }),
      after,
    );
    expect(await conforming(usage, refused, 403)).toMatchObject({ code: 'plan-required' });
    expect(await endExpiredTrials(after())).toBeGreaterThanOrEqual(1);
    await endExpiredTrials(after());
    expect(await db.account.findUniqueOrThrow({ where: { id: accountId } })).toMatchObject({
      plan: 'free',
      trialEndsAt: null,
      trialCredits: null,
    });
    const events = await db.domainEvent.findMany({ where: { accountId, type: 'plan.changed' } });
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ from: 'solo', to: 'free', reason: 'trial_ended' }),
    ]);
    expect(
      (await db.planChange.findMany({ where: { accountId }, orderBy: { id: 'asc' } })).map((change) => change.reason),
    ).toEqual(['trial_started', 'trial_ended']);
  });

  it('a downgrade mid-month: the new allowance at once, the credits used stay used, 402 until the reset', async () => {
    const owner = await makeAccount('pro');
    await db.creditUsage.create({
      data: { accountId: owner.accountId, periodStart: periodOf(new Date()).start, used: 3000 },
    });
    const { secret } = await createApiKey(owner, { name: 'downgrade', scope: 'read-only' });
    const apps = route('GET', '/apps');
    const get = () =>
      callPublicApi(new Request(`${ORIGIN}/api/public/v1/apps`, { headers: { Authorization: `Bearer ${secret}` } }));
    expect((await get()).headers.get('x-credits-remaining')).toBe('1999');
    await db.$transaction((tx) =>
      changePlan(tx, { accountId: owner.accountId, to: 'solo', reason: 'operator', now: new Date() }),
    );
    const refused = await get();
    expect(await conforming(apps, refused, 402)).toMatchObject({ code: 'credits-exhausted', creditsRemaining: 0 });
    expect([
      refused.headers.get('x-credits-limit'),
      refused.headers.get('x-credits-used'),
      refused.headers.get('x-credits-remaining'),
    ]).toEqual(['1500', '3001', '0']);
  });
});
