// Paging of the long lists over REST: the whole list without paging parameters (as v1 always answered), one page with
// them, and the headers that say where the list goes on, the same from a computed answer and from the cache.
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '@/server/services/api-keys/api-keys';
import { addKeywords } from '@/server/services/apps/apps';
import { makeAsoApp } from '../../../test/aso-fixture';
import { callPublicApi } from '../../../test/public-api';

const ORIGIN = 'http://api.test';
let base: string;
let key: string;

beforeAll(async () => {
  const { owner, app } = await makeAsoApp({ storeId: '700000041' });
  await addKeywords(owner.accountId, {
    appId: app.id,
    terms: ['calm', 'focus', 'yoga', 'journal', 'habit tracker', 'white noise', 'rain sounds'],
  });
  base = `/api/public/v1/apps/${app.id}`;
  key = (await createApiKey(owner, { name: 'paging', scope: 'read-only' })).secret;
});

const get = (path: string) =>
  callPublicApi(new Request(`${ORIGIN}${path}`, { headers: { Authorization: `Bearer ${key}` } }));

/** The `Link` header as a map of relation to target. */
function links(response: Response): Record<string, string> {
  const header = response.headers.get('link');
  if (!header) return {};
  return Object.fromEntries(
    header.split(', ').map((part) => {
      const [, target, rel] = /^<([^>]+)>; rel="(\w+)"$/.exec(part)!;
      return [rel!, target!];
    }),
  );
}

/** Every item of a list, page after page, following `next`. */
async function walk(
  first: string,
  itemsOf: (body: unknown) => unknown[],
): Promise<{ items: unknown[]; pages: number }> {
  const items: unknown[] = [];
  let next: string | undefined = first;
  let pages = 0;
  while (next) {
    const response = await get(next);
    expect(response.status).toBe(200);
    items.push(...itemsOf(await response.json()));
    next = links(response).next;
    pages++;
  }
  return { items, pages };
}

describe('a paged list', () => {
  it('answers whole without paging parameters, with its count and no links', async () => {
    const response = await get(`${base}/keywords`);
    const whole = (await response.json()) as unknown[];
    expect(whole).toHaveLength(12);
    expect(response.headers.get('x-total-count')).toBe('12');
    expect(response.headers.get('link')).toBeNull();
  });

  it('answers one page with links to the first, previous, next and last; following next gives the whole list', async () => {
    const whole = (await (await get(`${base}/keywords?rankWindow=30d`)).json()) as unknown[];
    const second = await get(`${base}/keywords?rankWindow=30d&page=2&pageSize=5`);
    expect(await second.json()).toEqual(whole.slice(5, 10));
    expect(second.headers.get('x-total-count')).toBe('12');
    expect(links(second)).toEqual({
      first: `${base}/keywords?rankWindow=30d&page=1&pageSize=5`,
      prev: `${base}/keywords?rankWindow=30d&page=1&pageSize=5`,
      next: `${base}/keywords?rankWindow=30d&page=3&pageSize=5`,
      last: `${base}/keywords?rankWindow=30d&page=3&pageSize=5`,
    });
    // Replayed from the cache, with the same headers.
    const again = await get(`${base}/keywords?rankWindow=30d&page=2&pageSize=5`);
    expect([again.headers.get('link'), again.headers.get('x-total-count')]).toEqual([
      second.headers.get('link'),
      second.headers.get('x-total-count'),
    ]);

    const walked = await walk(`${base}/keywords?rankWindow=30d&pageSize=5`, (body) => body as unknown[]);
    expect(walked).toEqual({ items: whole, pages: 3 });
    const last = await get(`${base}/keywords?rankWindow=30d&page=3&pageSize=5`);
    expect(links(last).next).toBeUndefined();
    const past = await get(`${base}/keywords?rankWindow=30d&page=9&pageSize=5`);
    expect(await past.json()).toEqual([]);
    expect(links(past)).toMatchObject({ prev: `${base}/keywords?rankWindow=30d&page=3&pageSize=5` });
    // `page` alone: pages of 100.
    expect(links(await get(`${base}/keywords?page=1`)).last).toBe(`${base}/keywords?page=1&pageSize=100`);
  });

  it('pages the list member of an object answer, the rest of it unchanged', async () => {
    const spy = (await (await get(`${base}/keyword-spy`)).json()) as {
      country: string;
      date: string;
      keywords: unknown[];
    };
    const page = (await (await get(`${base}/keyword-spy?pageSize=3&page=2`)).json()) as typeof spy;
    expect(page).toEqual({ ...spy, keywords: spy.keywords.slice(3, 6) });
    const changelog = (await (await get(`${base}/metadata/changelog`)).json()) as { changes: unknown[] };
    expect(
      (await walk(`${base}/metadata/changelog?pageSize=7`, (body) => (body as typeof changelog).changes)).items,
    ).toEqual(changelog.changes);
    const apps = await get('/api/public/v1/apps?pageSize=1');
    expect(apps.headers.get('x-total-count')).toBe('1');
  });

  it('gives reviews, which the procedure pages, the same headers', async () => {
    const first = await get(`${base}/reviews?pageSize=50`);
    const body = (await first.json()) as { total: number; items: unknown[] };
    expect(first.headers.get('x-total-count')).toBe(String(body.total));
    expect(links(first)).toMatchObject({
      first: `${base}/reviews?pageSize=50&page=1`,
      next: `${base}/reviews?pageSize=50&page=2`,
    });
    const walked = await walk(`${base}/reviews?pageSize=100&sort=oldest`, (page) => (page as typeof body).items);
    expect(walked.items).toHaveLength(body.total);
  });

  it('refuses paging parameters out of bounds, naming each, at no cost', async () => {
    const response = await get(`${base}/keywords?page=0&pageSize=1001`);
    expect(response.status).toBe(400);
    expect(response.headers.get('x-credits-cost')).toBe('0');
    expect((await response.json()).errors).toEqual([
      { in: 'query', name: 'page', detail: 'Must be a whole number from 1 to 100000.' },
      { in: 'query', name: 'pageSize', detail: 'Must be a whole number from 1 to 1000.' },
    ]);
  });
});
