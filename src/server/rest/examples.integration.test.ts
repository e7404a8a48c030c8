// The examples of the published contract: a real answer of every endpoint for the demo app on its fixed day, produced by
// the REST pipeline and kept in ./examples.json, which the document attaches to each operation's success. A change of
// an answer shows up here as a diff to review (`npx vitest run src/server/rest/examples.integration.test.ts -u`
// rewrites it). Lists are cut to their first three items; ids and the instants of this run are replaced by fixed ones.
import { expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { db } from '@/server/db';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { makeAsoApp } from '../../../test/aso-fixture';
import { callPublicApi } from '../../../test/public-api';
import { buildRoutes, type RestRoute } from './routes';

const ORIGIN = 'http://api.test';
const BODIES: Record<string, unknown> = {
  'POST /apps/{id}/keywords': { terms: ['calm breathing', 'sleep sounds'] },
  'POST /apps/{id}/competitors': { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
  'POST /apps': { storeUrl: 'https://apps.apple.com/us/app/sleep-sounds/id1500000077' },
};
const QUERIES: Record<string, string> = { '/apps/{id}/keywords/research': '?term=sleep%20sounds' };
const LIST_ITEMS = 3;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

it('answers every endpoint as the committed examples show', async () => {
  const { owner, app } = await makeAsoApp({ storeId: '1459969523' });
  const keyword = await db.trackedKeyword.findFirstOrThrow({ where: { appId: app.id, term: 'meditation' } });
  const { secret } = await createApiKey(owner, { name: 'examples', scope: 'read-write' });
  const examples: Record<string, unknown> = {};
  // Writes first (the lists then show what they added), reads in the order of the router, usage last (it counts them).
  const rank = (route: RestRoute) => (route.method !== 'GET' ? 0 : route.template === '/usage' ? 2 : 1);
  const routes = buildRoutes(appRouter).sort((a, b) => rank(a) - rank(b));
  for (const route of routes) {
    const path = route.template.replace('{id}', app.id).replace('{keywordId}', keyword.id) + (QUERIES[route.template] ?? '');
    const body = BODIES[`${route.method} ${route.template}`];
    const response = await callPublicApi(
      new Request(`${ORIGIN}/api/public/v1${path}`, {
        method: route.method,
        headers: { Authorization: `Bearer ${secret}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    expect(response.status, `${route.method} ${route.template}`).toBe(200);
    examples[`${route.method} ${route.template}`] = shorten(await response.json());
  }
  await expect(normalise(JSON.stringify(examples, null, 2)) + '\n').toMatchFileSnapshot('./examples.json');
});

function shorten(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, LIST_ITEMS).map(shorten);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, shorten(member)]));
  return value;
}

/**
 * Ids and key prefixes are random per run, and some instants are the run's own (when a row was created, the usage
 * period): each becomes a fixed value, the same one each run. The run's month becomes July 2026, after the demo day.
 */
function normalise(text: string): string {
  const ids = new Map<string, string>();
  const now = Date.now();
  const month = (offset: number) => new Date(Date.UTC(new Date(now).getUTCFullYear(), new Date(now).getUTCMonth() + offset, 1)).toISOString().slice(0, 7);
  return text
    .replace(UUID, (uuid) => {
      if (!ids.has(uuid)) ids.set(uuid, `00000000-0000-4000-8000-${String(ids.size + 1).padStart(12, '0')}`);
      return ids.get(uuid)!;
    })
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/g, (instant) => (Math.abs(Date.parse(instant) - now) < 3_600_000 ? '2026-07-01T09:30:00.000Z' : instant))
    .replaceAll(`"${month(0)}-`, '"2026-07-')
    .replaceAll(`"${month(1)}-`, '"2026-08-')
    .replace(/svc_live_[A-Za-z0-9]{4}…[A-Za-z0-9]{4}/g, 'svc_live_Ab3d…x9Yz');
}
