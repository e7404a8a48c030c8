// Exports (issue 68) against the production build: a year of keyword ranks for every demo app, as Parquet and as CSV,
// downloaded by its signed link and read back by DuckDB (another Parquet implementation than the writer's), row for
// row what the keyword history answers; a correctly signed link past its expiry is 403; another account's export is
// 404. The worker killed mid-export is e2e/external/cross-process.spec.ts's (a deployment whose worker can be killed).
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { downloadLinkSignature } from '../../src/server/services/exports/download-links';
import { readWithDuckDb } from '../../test/duckdb';
import { addAppFor, API, bearer, createKey, DEMO, newAccount, signIn } from '../helpers';

interface ExportFile {
  id: string;
  dataset: string;
  rows: number;
  bytes: number;
  sha256: string;
  url: string;
  expiresAt: string;
}
interface ExportView {
  id: string;
  state: string;
  progress: { rowsDone: number; rowsEstimated: number; percent: number };
  files: ExportFile[];
}
interface RankRow {
  app_id: string;
  keyword_id: string;
  term: string;
  country: string;
  date: string;
  rank: number | null;
  status: string;
}

const folder = mkdtempSync(path.join(tmpdir(), 'e2e-exports-'));
test.afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function get<T>(request: APIRequestContext, key: string, url: string): Promise<T> {
  const response = await request.get(`${API}${url}`, { headers: bearer(key) });
  expect(response.status(), url).toBe(200);
  return (await response.json()) as T;
}

/** Asks for an export and waits for the e2e server's background work to complete it. */
async function exported(request: APIRequestContext, key: string, body: Record<string, unknown>): Promise<ExportView> {
  const asked = await request.post(`${API}/exports`, { headers: bearer(key), data: body });
  expect(asked.status(), await asked.text()).toBe(202);
  const { id } = (await asked.json()) as ExportView;
  let view: ExportView | undefined;
  await expect
    .poll(async () => (view = await get<ExportView>(request, key, `/exports/${id}`)).state, { timeout: 120_000 })
    .toBe('completed');
  return view!;
}

/** The file, downloaded by its link (no credential), checked against its size and hash, written to disk. */
async function download(request: APIRequestContext, file: ExportFile, name: string): Promise<string> {
  const link = new URL(file.url);
  const response = await request.get(`${link.pathname}${link.search}`);
  expect(response.status()).toBe(200);
  const body = await response.body();
  expect(body.byteLength).toBe(file.bytes);
  expect(createHash('sha256').update(body).digest('hex')).toBe(file.sha256);
  const onDisk = path.join(folder, name);
  writeFileSync(onDisk, body);
  return onDisk;
}

/** Every tracked keyword of the account's apps, in every storefront each app is tracked in. */
async function trackedKeywords(request: APIRequestContext, key: string) {
  const apps = await get<{ id: string; storefronts: string[] }[]>(request, key, '/apps');
  const keywords: { appId: string; keywordId: string }[] = [];
  for (const app of apps)
    for (const country of app.storefronts)
      for (const keyword of await get<{ keywordId: string }[]>(
        request,
        key,
        `/apps/${app.id}/keywords?country=${country}`,
      ))
        keywords.push({ appId: app.id, keywordId: keyword.keywordId });
  return { apps, keywords };
}

test('a year of keyword ranks for every demo app, as Parquet and as CSV, reads back in DuckDB row for row as the keyword history answers', async ({
  request,
}) => {
  test.setTimeout(480_000);
  const session = await signIn(DEMO.email, DEMO.password);
  const key = await createKey(session, 'read-only', `exports ${Date.now()}`);
  // Other tests track and drop keywords of the demo apps meanwhile: the keywords compared are those tracked before
  // the export was asked for and still tracked after it was written.
  const before = await trackedKeywords(request, key);
  expect(before.apps.length).toBeGreaterThanOrEqual(2);
  const expected: RankRow[] = [];
  let window: { from: string; to: string } | undefined;
  for (const { appId, keywordId } of before.keywords) {
    const history = await get<{
      term: string;
      country: string;
      from: string;
      to: string;
      points: { date: string; rank: number | null; status: string }[];
    }>(request, key, `/apps/${appId}/keywords/${keywordId}/history?days=365`);
    window ??= { from: history.from, to: history.to };
    expect({ from: history.from, to: history.to }).toEqual(window);
    for (const point of history.points)
      expected.push({ app_id: appId, keyword_id: keywordId, term: history.term, country: history.country, ...point });
  }
  expect(expected.length).toBeGreaterThan(before.keywords.length * 300);
  expect(new Set(expected.map((row) => row.status))).toEqual(new Set(['ranked', 'unranked', 'not_observed']));

  const read: Record<string, RankRow[]> = {};
  for (const format of ['parquet', 'csv'] as const) {
    const done = await exported(request, key, { datasets: ['keyword_ranks'], ...window, format });
    expect(done.files).toHaveLength(1);
    const [file] = done.files;
    expect(file).toMatchObject({ dataset: 'keyword_ranks', rows: done.progress.rowsDone });
    const onDisk = await download(request, file!, `keyword_ranks.${format}`);
    const reader =
      format === 'parquet'
        ? `read_parquet('${onDisk}')`
        : `read_csv('${onDisk}', header = true, types = {'rank': 'INTEGER', 'date': 'DATE'})`;
    read[format] = (await readWithDuckDb(
      `SELECT app_id, keyword_id, term, country, strftime(date, '%Y-%m-%d') AS date, rank, status FROM ${reader}`,
    )) as unknown as RankRow[];
    expect(read[format]).toHaveLength(file!.rows);
  }
  // A Parquet column is typed: the rank an integer, the day a date (DuckDB's DESCRIBE of the file).
  const parquet = path.join(folder, 'keyword_ranks.parquet');
  const types = Object.fromEntries(
    (await readWithDuckDb(`DESCRIBE SELECT rank, date, status FROM read_parquet('${parquet}')`)).map((column) => [
      column.column_name,
      column.column_type,
    ]),
  );
  expect(types).toEqual({ rank: 'INTEGER', date: 'DATE', status: 'VARCHAR' });

  const after = await trackedKeywords(request, key);
  const stable = new Set(
    before.keywords
      .filter((keyword) => after.keywords.some((other) => other.keywordId === keyword.keywordId))
      .map((keyword) => keyword.keywordId),
  );
  expect(stable.size).toBeGreaterThan(0);
  const order = (rows: RankRow[]) =>
    rows
      .filter((row) => stable.has(row.keyword_id))
      .sort((a, b) => a.keyword_id.localeCompare(b.keyword_id) || a.date.localeCompare(b.date));
  for (const format of ['parquet', 'csv'] as const) expect(order(read[format]!), format).toEqual(order(expected));
  // Every demo app is in the file.
  expect(new Set(read.parquet!.map((row) => row.app_id))).toEqual(
    new Set(before.keywords.map((keyword) => keyword.appId)),
  );
});

test('a download link past its expiry is 403, an altered one too; another account’s export is 404 to it', async ({
  request,
}) => {
  const { session, email } = await newAccount('pro');
  await addAppFor(email, 'https://apps.apple.com/us/app/exported-ratings/id1500006801');
  const key = await createKey(session, 'read-write', 'exports');
  const to = new Date().toISOString().slice(0, 10);
  const done = await exported(request, key, { datasets: ['ratings'], from: '2026-01-01', to, format: 'jsonl' });
  const [file] = done.files;
  const link = new URL(file!.url);
  expect((await request.get(`${link.pathname}${link.search}`)).status()).toBe(200);

  // A link the server signed (its secret, its scheme), whose hour has passed.
  const secret = readFileSync('.data/e2e/auth-secret', 'utf8').trim();
  const expired = Math.floor(Date.now() / 1000) - 60;
  const lapsed = await request.get(
    `${link.pathname}?expires=${expired}&signature=${downloadLinkSignature(secret, file!.id, expired)}`,
  );
  expect(lapsed.status()).toBe(403);
  expect(lapsed.headers()['content-type']).toContain('application/problem+json');
  expect(await lapsed.json()).toMatchObject({ status: 403, detail: expect.stringContaining('expired') });
  // The same link with a later expiry than it was signed for.
  const later = Number(link.searchParams.get('expires')) + 3600;
  const altered = await request.get(
    `${link.pathname}?expires=${later}&signature=${link.searchParams.get('signature')}`,
  );
  expect(altered.status()).toBe(403);

  const stranger = await newAccount('pro');
  const strangerKey = await createKey(stranger.session, 'read-write', 'stranger');
  for (const response of [
    await request.get(`${API}/exports/${done.id}`, { headers: bearer(strangerKey) }),
    await request.post(`${API}/exports/${done.id}/cancel`, { headers: bearer(strangerKey) }),
  ]) {
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toContain('application/problem+json');
  }
  const listed = await get<{ data: { id: string }[] } | { id: string }[]>(request, strangerKey, '/exports');
  expect(JSON.stringify(listed)).not.toContain(done.id);
});
