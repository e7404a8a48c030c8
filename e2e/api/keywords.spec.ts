// POST /apps/{id}/keywords over HTTP: media types (SPEC rule 1), body limits, validation with an errors list,
// idempotence. The tests share the demo account's Google Play app and run at once: each adds terms of its own (a random
// suffix) and counts those alone, never the app's total, which the others change meanwhile.
import { randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { API, bearer, createKey, DEMO, DEMO_PLAY_APP_ID, expectProblem, signIn } from '../helpers';

let key: string;
const path = `${API}/apps/${DEMO_PLAY_APP_ID}/keywords`;
const unique = () => `term ${randomUUID().slice(0, 8)}`;

test.beforeAll(async () => {
  key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-write', 'keywords spec');
});

test.describe('accepted media types', () => {
  for (const contentType of [
    'application/json',
    'application/json; charset=utf-8',
    'text/json',
    'application/vnd.api+json',
    'application/merge-patch+json; charset=UTF-8',
  ]) {
    test(contentType, async ({ request }) => {
      const term = unique();
      const response = await request.post(path, {
        headers: { ...bearer(key), 'Content-Type': contentType },
        data: Buffer.from(JSON.stringify({ terms: [term] })),
      });
      expect(response.status(), await response.text()).toBe(200);
      const body = await response.json();
      expect(body.added.map((k: { term: string }) => k.term)).toEqual([term]);
    });
  }
});

test.describe('refused media types are 415', () => {
  for (const contentType of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=iso-8859-1',
    'application/jsonx',
    '',
  ]) {
    test(contentType || '(none)', async ({ request }) => {
      const headers: Record<string, string> = { ...bearer(key) };
      if (contentType) headers['Content-Type'] = contentType;
      const response = await request.post(path, { headers, data: Buffer.from('{"terms":["x"]}') });
      await expectProblem(response, 415, 'unsupported-media-type');
    });
  }
});

test('a body over 64 KiB is 413 and nothing is added', async ({ request }) => {
  const marker = unique();
  const terms = [marker, ...Array.from({ length: 700 }, (_, i) => `${'x'.repeat(90)}${i}`)];
  const response = await request.post(path, { headers: bearer(key), data: { terms } });
  await expectProblem(response, 413, 'payload-too-large');
  const again = await request.post(path, { headers: bearer(key), data: { terms: [marker] } });
  expect((await again.json()).added).toHaveLength(1);
});

test('malformed JSON and non-object bodies are 400 validation errors', async ({ request }) => {
  const invalidUtf8 = Buffer.concat([Buffer.from('{"terms":["'), Buffer.from([0xff, 0xfe]), Buffer.from('"]}')]);
  for (const raw of [
    Buffer.from('{"terms": ['),
    Buffer.from('null'),
    Buffer.from('[]'),
    Buffer.from('"terms"'),
    Buffer.from(''),
    invalidUtf8,
  ]) {
    const response = await request.post(path, {
      headers: { ...bearer(key), 'Content-Type': 'application/json' },
      data: raw,
    });
    const body = await expectProblem(response, 400, 'validation-error');
    expect(body.errors).toEqual([expect.objectContaining({ in: 'body', pointer: '#' })]);
  }
});

test('invalid members are each reported with a JSON pointer', async ({ request }) => {
  const cases: [unknown, string[]][] = [
    [{}, ['#/terms']],
    [{ terms: null }, ['#/terms']],
    [{ terms: [] }, ['#/terms']],
    [{ terms: ['ok', '   ', 'x'.repeat(101)] }, ['#/terms/1', '#/terms/2']],
    [{ terms: Array.from({ length: 101 }, (_, i) => `t${i}`) }, ['#/terms']],
    [{ terms: ['ok'], country: 'ZZ' }, ['#/country']],
    [{ terms: ['ok'], country: 'USA' }, ['#/country']],
    [{ terms: ['ok'], extra: true }, ['#/extra']],
    [{ terms: ['ok'], id: DEMO_PLAY_APP_ID }, ['#/id']],
    [{ terms: [42] }, ['#/terms/0']],
  ];
  for (const [data, pointers] of cases) {
    const response = await request.post(path, { headers: bearer(key), data: data as object });
    const body = await expectProblem(response, 400, 'validation-error');
    const errors = body.errors as { in: string; pointer: string; detail: string }[];
    expect(errors.map((error) => error.pointer).sort(), JSON.stringify(data)).toEqual(pointers);
    for (const error of errors) {
      expect(error.in).toBe('body');
      expect(error.detail.length).toBeGreaterThan(0);
    }
  }
});

test('adding is idempotent: terms already tracked are reported, not duplicated', async ({ request }) => {
  const [a, b] = [unique(), unique()];
  const first = await (
    await request.post(path, { headers: bearer(key), data: { terms: [a, b.toUpperCase(), ` ${b} `] } })
  ).json();
  expect(first.country).toBe('US');
  expect(first.added.map((k: { term: string }) => k.term)).toEqual([a, b.toUpperCase()]);
  expect(first.alreadyTracked).toEqual([]);

  const second = await (await request.post(path, { headers: bearer(key), data: { terms: [b, a] } })).json();
  expect(second.added).toEqual([]);
  expect(second.alreadyTracked.map((k: { keywordId: string }) => k.keywordId)).toEqual([
    first.added[1].keywordId,
    first.added[0].keywordId,
  ]);

  await request.post(path, { headers: bearer(key), data: { terms: [a, b] } });
  const tracked: { term: string }[] = await (await request.get(path, { headers: bearer(key) })).json();
  // Each once: a, and b as first added (upper-case).
  expect(
    tracked
      .filter((keyword) => [a, b.toUpperCase()].includes(keyword.term))
      .map((keyword) => keyword.term)
      .sort(),
  ).toEqual([a, b.toUpperCase()].sort());
  expect(tracked.filter((keyword) => keyword.term.toLowerCase() === b).length).toBe(1);
});

test('a country is case-insensitive and answered upper-case; null means the primary country', async ({ request }) => {
  const term = unique();
  const inGermany = await (
    await request.post(path, { headers: bearer(key), data: { terms: [term], country: 'de' } })
  ).json();
  expect(inGermany.country).toBe('DE');
  expect(inGermany.added[0]).toMatchObject({ term, country: 'DE', isFavorite: false });
  const primary = await (
    await request.post(path, { headers: bearer(key), data: { terms: [term], country: null } })
  ).json();
  expect(primary.country).toBe('US');
  expect(primary.added).toHaveLength(1);
});
