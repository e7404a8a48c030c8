// Response conformance: for every endpoint, real answers of the REST pipeline (a success and each error kind it can
// give: 400, 401, 402, 403, 404, 413, 415, 422, 429) validate against the published document with ajv (JSON Schema
// 2020-12, as OpenAPI 3.1 uses): the status is documented, the body matches its schema, the media type is the
// documented one and every documented header is set. 500 needs a failing database: pipeline.integration.test.ts checks its
// shape; 503 (a database outage) is produced for real by e2e/api/database-restart.spec.ts and recognised from real
// driver errors in src/server/db/errors.integration.test.ts.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { periodOf } from '@/server/services/metering/credits';
import { makeAccount } from '../../../test/factories';
import { makeAsoApp } from '../../../test/aso-fixture';
import { buildOpenApiDocument } from './document';
import { callPublicApi } from '../../../test/public-api';
import { buildRoutes, type RestRoute } from './routes';

const ORIGIN = 'http://api.test';
type Operation = { responses: Record<string, { headers?: Record<string, unknown>; content: Record<string, { schema: object }> }> };
const document = buildOpenApiDocument(ORIGIN) as { paths: Record<string, Record<string, Operation>> };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(document, 'openapi.json');

const routes = buildRoutes(appRouter);
const BODIES: Record<string, unknown> = {
  'POST /apps/{id}/keywords': { terms: ['calm breathing'] },
  'POST /apps/{id}/competitors': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
};
const QUERIES: Record<string, string> = { '/apps/{id}/keywords/research': '?term=sleep' };

let ids: { id: string; keywordId: string };
let keys: { pro: string; readOnly: string; exhausted: string; free: string };

beforeAll(async () => {
  const { owner, app } = await makeAsoApp();
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id } });
  ids = { id: app.id, keywordId: keyword.id };
  keys = {
    pro: (await createApiKey(owner, { name: 'conformance', scope: 'read-write' })).secret,
    readOnly: (await createApiKey(owner, { name: 'conformance ro', scope: 'read-only' })).secret,
    exhausted: '',
    free: '',
  };
  const spent = await makeAccount('solo');
  await db.creditUsage.create({ data: { accountId: spent.accountId, periodStart: periodOf(new Date()).start, used: 1500 } });
  keys.exhausted = (await createApiKey(spent, { name: 'spent', scope: 'read-write' })).secret;
  const free = await makeAccount('solo');
  keys.free = (await createApiKey(free, { name: 'to be free', scope: 'read-write' })).secret;
  await db.account.update({ where: { id: free.accountId }, data: { plan: 'free' } });
}, 120_000);

function pathOf(route: RestRoute, overrides: Partial<typeof ids> = {}): string {
  const values = { ...ids, ...overrides };
  return route.template.replace(/\{(\w+)\}/g, (_, name: keyof typeof ids) => values[name]) + (QUERIES[route.template] ?? '');
}

async function call(route: RestRoute, options: { key?: string | null; path?: string; body?: string; contentType?: string; idempotencyKey?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  if (options.key !== null) headers.Authorization = `Bearer ${options.key ?? keys.pro}`;
  let body: string | undefined;
  if (route.method !== 'GET') {
    headers['Content-Type'] = options.contentType ?? 'application/json';
    body = options.body ?? JSON.stringify(BODIES[`${route.method} ${route.template}`]);
  }
  return callPublicApi(new Request(`${ORIGIN}/api/public/v1${options.path ?? pathOf(route)}`, { method: route.method, headers, body }));
}

async function expectConforms(route: RestRoute, response: Response, status: number) {
  const label = `${route.method} ${route.template} → ${status}`;
  expect(response.status, label).toBe(status);
  const operation = document.paths[route.template]![route.method.toLowerCase()]!;
  const documented = operation.responses[String(status)];
  expect(documented, `${label} is not documented`).toBeDefined();
  const [mediaType] = Object.keys(documented!.content);
  expect(response.headers.get('content-type'), label).toBe(mediaType);
  const pointer = `openapi.json#/paths/${route.template.replaceAll('~', '~0').replaceAll('/', '~1').replaceAll('{', '%7B').replaceAll('}', '%7D')}/${route.method.toLowerCase()}/responses/${status}/content/${mediaType!.replace('/', '~1')}/schema`;
  const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
  const body: unknown = await response.json();
  expect(validate(body) ? [] : validate.errors, label).toEqual([]);
  for (const header of Object.keys(documented!.headers ?? {})) {
    const optional = header === 'Idempotent-Replayed' || header === 'WWW-Authenticate' || header === 'Retry-After';
    if (!optional) expect(response.headers.has(header), `${label}: header ${header}`).toBe(true);
  }
}

describe('responses conform to the published document', () => {
  for (const route of routes) {
    it(`${route.method} ${route.template}`, async () => {
      await expectConforms(route, await call(route), 200);
      await expectConforms(route, await call(route, { key: null }), 401);
      await expectConforms(route, await call(route, { key: 'svc_live_not-a-key' }), 401);
      if (route.template.includes('{id}')) await expectConforms(route, await call(route, { path: pathOf(route, { id: randomUUID() }) }), 404);
      if (route.template.includes('{id}')) await expectConforms(route, await call(route, { path: pathOf(route, { id: 'not-a-uuid' }) }), 400);
      // The allowance is checked before the lookup (CONTRACT's pipeline): a spent account gets 402 whatever the id.
      if ((route.meta.credits ?? 0) > 0) await expectConforms(route, await call(route, { key: keys.exhausted, path: pathOf(route, { id: randomUUID() }) }), 402);
      await expectConforms(route, await call(route, { key: keys.free }), 403);
      if (route.meta.scope === 'write') {
        await expectConforms(route, await call(route, { key: keys.readOnly }), 403);
        await expectConforms(route, await call(route, { contentType: 'text/plain' }), 415);
        await expectConforms(route, await call(route, { body: '{"terms": [' }), 400);
        await expectConforms(route, await call(route, { body: JSON.stringify({ terms: ['x'.repeat(70 * 1024)] }) }), 413);
        const idempotencyKey = randomUUID();
        await expectConforms(route, await call(route, { idempotencyKey }), 200);
        await expectConforms(route, await call(route, { idempotencyKey, body: JSON.stringify({ terms: ['another term'], storeUrl: 'https://apps.apple.com/us/app/headspace/id493145008' }) }), 422);
      }
    });
  }
});

it('answers 429 as documented once a key passes its requests per minute', async () => {
  const owner = await makeAccount('solo');
  const { secret } = await createApiKey(owner, { name: 'busy', scope: 'read-only' });
  const usage = routes.find((route) => route.template === '/usage')!;
  let response: Response | undefined;
  for (let count = 0; count <= 600 && response?.status !== 429; count++) response = await call(usage, { key: secret });
  await expectConforms(usage, response!, 429);
  expect(Number(response!.headers.get('retry-after'))).toBeGreaterThan(0);
}, 60_000);
