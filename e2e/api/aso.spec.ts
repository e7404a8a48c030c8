// Every ASO endpoint over HTTP with a real key: defaults, the bounds of each parameter (CONTRACT "Inputs"),
// cross-account 404 and unknown keyword ids.
import { expect, test } from '@playwright/test';
import { API, bearer, createKey, DEMO, DEMO_APP_ID, expectProblem, OTHER, OTHER_APP_ID, signIn } from '../helpers';

let key: string;
let keywordId: string;
let foreignKeywordId: string;
const app = `${API}/apps/${DEMO_APP_ID}`;

test.beforeAll(async ({ request }) => {
  key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-write', 'aso spec');
  const otherKey = await createKey(await signIn(OTHER.email, OTHER.password), 'read-only', 'aso spec');
  keywordId = (await (await request.get(`${app}/keywords`, { headers: bearer(key) })).json())[0].keywordId;
  foreignKeywordId = (
    await (await request.get(`${API}/apps/${OTHER_APP_ID}/keywords`, { headers: bearer(otherKey) })).json()
  )[0].keywordId;
});

const endpoints = () => [
  'keywords',
  'aso-score',
  'opportunities',
  'competitors',
  'keywords/research?term=sleep',
  'reviews',
  'reviews/insights',
  `keywords/${keywordId}/history`,
  `keywords/${keywordId}/metrics-history`,
  'category-rank',
  'rating-history',
  'metadata',
  'metadata/changelog',
  'keyword-spy',
];

test('every endpoint answers 200 JSON with its defaults', async ({ request }) => {
  for (const path of endpoints()) {
    const response = await request.get(`${app}/${path}`, { headers: bearer(key) });
    expect(response.status(), path).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/json/);
  }
  const keywords = await (await request.get(`${app}/keywords`, { headers: bearer(key) })).json();
  expect(Array.isArray(keywords)).toBe(true);
  for (const item of keywords) {
    expect(item).toEqual(
      expect.objectContaining({
        term: expect.any(String),
        isFavorite: expect.any(Boolean),
        keywordId: expect.any(String),
      }),
    );
    expect(item.rank === null || Number.isInteger(item.rank)).toBe(true);
    // The account's first key pinned it to the newest version: null when an end of the window is not a rank.
    expect(item.rankDelta === null || Number.isInteger(item.rankDelta)).toBe(true);
  }
  expect(
    (await (await request.get(`${app}/keywords/${keywordId}/history`, { headers: bearer(key) })).json()).points,
  ).toHaveLength(30);
  expect(
    (await (await request.get(`${app}/keywords/${keywordId}/metrics-history`, { headers: bearer(key) })).json()).points,
  ).toHaveLength(180);
  expect((await (await request.get(`${app}/category-rank`, { headers: bearer(key) })).json()).points).toHaveLength(30);
  expect(
    (await (await request.get(`${app}/opportunities`, { headers: bearer(key) })).json()).items.length,
  ).toBeLessThanOrEqual(50);
  const reviews = await (await request.get(`${app}/reviews`, { headers: bearer(key) })).json();
  expect(reviews).toMatchObject({ page: 1, pageSize: 20 });
  expect(
    (await (await request.get(`${app}/keywords/research?term=sleep`, { headers: bearer(key) })).json()).country,
  ).toBe('US');
  expect(await (await request.get(`${API}/usage`, { headers: bearer(key) })).json()).toMatchObject({
    plan: 'pro',
    limit: 5000,
  });
});

const integerBounds: [string, string, number, number][] = [
  ['opportunities', 'limit', 1, 200],
  ['reviews', 'page', 1, 100_000],
  ['reviews', 'pageSize', 1, 100],
  ['reviews', 'rating', 1, 5],
  ['category-rank', 'days', 1, 365],
  ['keywords/{keywordId}/history', 'days', 1, 365],
  ['keywords/{keywordId}/metrics-history', 'days', 1, 365],
];

for (const [path, name, min, max] of integerBounds) {
  test(`${path} ${name}: ${min}–${max}, decimal integers only, as documented`, async ({ request }) => {
    const url = (value: string) =>
      `${app}/${path.replace('{keywordId}', keywordId)}?${name}=${encodeURIComponent(value)}`;
    // The document states the same bounds the check applies.
    const document = await (await request.get(`${API}/openapi.json`)).json();
    const operation = document.paths[`/apps/{id}/${path}`].get;
    const resolve = (parameter: { $ref?: string; name?: string }) =>
      parameter.$ref ? document.components.parameters[parameter.$ref.split('/').at(-1)!] : parameter;
    const parameter = operation.parameters.map(resolve).find((candidate: { name: string }) => candidate.name === name);
    expect(parameter.schema).toMatchObject({ type: 'integer', minimum: min, maximum: max });
    for (const value of [String(min), String(max)]) {
      expect((await request.get(url(value), { headers: bearer(key) })).status(), `${name}=${value}`).toBe(200);
    }
    const invalid = [
      String(min - 1),
      String(max + 1),
      '1000000000',
      '99999999999999999999',
      '1e2',
      '0x10',
      '1.5',
      '',
      ' 7',
      '-1',
      'abc',
    ];
    for (const value of invalid) {
      const body = await expectProblem(
        await request.get(url(value), { headers: bearer(key) }),
        400,
        'validation-error',
      );
      expect(body.errors, `${name}=${value}`).toEqual([
        { in: 'query', name, detail: `Must be a whole number from ${min} to ${max}.` },
      ]);
    }
  });
}

test('enumerations and countries are validated; countries answer upper-case', async ({ request }) => {
  for (const window of ['1d', '7d', '30d', '90d'])
    expect((await request.get(`${app}/keywords?rankWindow=${window}`, { headers: bearer(key) })).status()).toBe(200);
  for (const sort of ['newest', 'oldest', 'highest', 'lowest'])
    expect((await request.get(`${app}/reviews?sort=${sort}`, { headers: bearer(key) })).status()).toBe(200);
  for (const [path, name, value] of [
    ['keywords', 'rankWindow', '14d'],
    ['keywords', 'rankWindow', ''],
    ['reviews', 'sort', 'best'],
    ['keyword-spy', 'country', 'ZZ'],
    ['keyword-spy', 'country', 'usa'],
    ['metadata', 'country', ''],
    ['keywords/research', 'country', '1'],
  ]) {
    const extra = path === 'keywords/research' ? 'term=sleep&' : '';
    const body = await expectProblem(
      await request.get(`${app}/${path}?${extra}${name}=${value}`, { headers: bearer(key) }),
      400,
      'validation-error',
    );
    expect(body.errors).toEqual([expect.objectContaining({ in: 'query', name })]);
  }
  expect((await (await request.get(`${app}/keyword-spy?country=us`, { headers: bearer(key) })).json()).country).toBe(
    'US',
  );
  const research = await expectProblem(
    await request.get(`${app}/keywords/research`, { headers: bearer(key) }),
    400,
    'validation-error',
  );
  expect(research.errors).toEqual([expect.objectContaining({ in: 'query', name: 'term' })]);
  const repeated = await request.get(`${app}/reviews?page=1&page=2`, { headers: bearer(key) });
  await expectProblem(repeated, 400, 'validation-error');
});

test('another account’s app is 404 on every endpoint, and so are unknown or foreign keyword ids', async ({
  request,
}) => {
  for (const path of endpoints()) {
    const foreignPath = path.replace(keywordId, foreignKeywordId);
    await expectProblem(
      await request.get(`${API}/apps/${OTHER_APP_ID}/${foreignPath}`, { headers: bearer(key) }),
      404,
      'not-found',
    );
  }
  for (const suffix of ['history', 'metrics-history']) {
    await expectProblem(
      await request.get(`${app}/keywords/${foreignKeywordId}/${suffix}`, { headers: bearer(key) }),
      404,
      'not-found',
    );
    await expectProblem(
      await request.get(`${app}/keywords/00000000-0000-4000-8000-000000000000/${suffix}`, { headers: bearer(key) }),
      404,
      'not-found',
    );
    const malformed = await expectProblem(
      await request.get(`${app}/keywords/not-a-uuid/${suffix}`, { headers: bearer(key) }),
      400,
      'validation-error',
    );
    expect(malformed.errors).toEqual([expect.objectContaining({ in: 'path', name: 'keywordId' })]);
  }
  await expectProblem(
    await request.post(`${API}/apps/${OTHER_APP_ID}/competitors`, {
      headers: bearer(key),
      data: { storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' },
    }),
    404,
    'not-found',
  );
});

test('competitors: added idempotently, validated, write scope required', async ({ request }) => {
  const url = 'https://apps.apple.com/us/app/headspace-meditation-sleep/id493145008';
  for (const contentType of ['application/json', 'text/json', 'application/vnd.api+json; charset=utf-8']) {
    const response = await request.post(`${app}/competitors`, {
      headers: { ...bearer(key), 'Content-Type': contentType },
      data: Buffer.from(JSON.stringify({ storeUrl: url })),
    });
    expect(response.status(), contentType).toBe(200);
  }
  const list = await (await request.get(`${app}/competitors`, { headers: bearer(key) })).json();
  expect(list.filter((competitor: { storeId: string }) => competitor.storeId === '493145008')).toHaveLength(1);
  for (const data of [{}, { storeUrl: null }, { storeUrl: 'https://example.com' }, { storeUrl: url, extra: 1 }]) {
    const body = await expectProblem(
      await request.post(`${app}/competitors`, { headers: bearer(key), data }),
      400,
      'validation-error',
    );
    expect((body.errors as { pointer: string }[])[0]!.pointer).toMatch(/^#\/(storeUrl|extra)$/);
  }
  const readOnly = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'competitor scope');
  await expectProblem(
    await request.post(`${app}/competitors`, { headers: bearer(readOnly), data: { storeUrl: url } }),
    403,
    'insufficient-scope',
  );
});
