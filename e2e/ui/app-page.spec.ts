// The app page shows the numbers the API answers for the same account.
import { expect, test } from '@playwright/test';
import type { Download } from '@playwright/test';
import { admin, API, bearer, createKey, DEMO, DEMO_APP_ID, newAccount, signIn, signInAs } from '../helpers';

type RankPoint = { date: string; rank: number | null; status: 'ranked' | 'unranked' | 'not_observed' };

async function readDownload(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

test('keywords table and ASO score match the API; the table sorts, filters and exports', async ({ page, request }) => {
  const key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'app page spec');
  await signInAs(page, DEMO.email, DEMO.password);
  await page.goto('/apps');
  await page.getByRole('link', { name: 'Breathe: Sleep & Meditation', exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/apps/${DEMO_APP_ID}`));

  const keywords: {
    keywordId: string;
    term: string;
    rank: number | null;
    rankDelta: number;
    volume: number | null;
    difficulty: number | null;
  }[] = await (await request.get(`${API}/apps/${DEMO_APP_ID}/keywords`, { headers: bearer(key) })).json();
  const rows = page.getByTestId('keywords-table').locator('tbody tr');
  await expect(rows).toHaveCount(keywords.length);
  for (const [index, item] of keywords.entries()) {
    const row = rows.nth(index);
    await expect(row).toHaveAttribute('data-keyword-id', item.keywordId);
    await expect(row.locator('td').first()).toHaveText(item.term);
    await expect(row.getByTestId('rank')).toHaveText(item.rank === null ? '—' : String(item.rank));
    await expect(row.getByTestId('rank-delta')).toHaveAttribute('data-value', String(item.rankDelta));
    await expect(row.getByTestId('volume')).toHaveText(
      item.volume === null ? '—' : item.volume.toLocaleString('en-US'),
    );
    await expect(row.getByTestId('difficulty')).toHaveText(item.difficulty === null ? '—' : String(item.difficulty));
  }

  // The data's age, as the API gives it.
  const app = await (await request.get(`${API}/apps/${DEMO_APP_ID}`, { headers: bearer(key) })).json();
  await expect(page.getByTestId('data-freshness')).toHaveAttribute('data-stale', 'false');
  await expect(page.getByTestId('data-freshness').locator('time')).toHaveAttribute('datetime', app.lastObservedAt);

  const score = await (await request.get(`${API}/apps/${DEMO_APP_ID}/aso-score`, { headers: bearer(key) })).json();
  await expect(page.getByTestId('aso-score-value')).toHaveText(String(score.score));
  const pillars = page.getByTestId('aso-pillars');
  for (const [name, pillar] of Object.entries(score.pillars as Record<string, { score: number; weight: number }>)) {
    await expect(pillars.locator(`tr[data-pillar="${name}"]`).getByTestId('pillar-contribution')).toHaveText(
      (pillar.score * pillar.weight).toFixed(1),
    );
  }

  // Sorting is the table's own: by volume, largest first, unranked terms last.
  await page.getByRole('button', { name: /^Volume/ }).click();
  await page.getByRole('button', { name: /^Volume/ }).click();
  const byVolume = [...keywords].sort((a, b) => (b.volume ?? -1) - (a.volume ?? -1));
  await expect(rows.first().locator('td').first()).toHaveText(byVolume[0]!.term);
  await expect(page.getByRole('columnheader', { name: /Volume/ })).toHaveAttribute('aria-sort', 'descending');
  await page.getByTestId('keyword-filter').fill(keywords[1]!.term);
  await expect(rows).toHaveCount(
    keywords.filter((item) => item.term.toLowerCase().includes(keywords[1]!.term.toLowerCase())).length,
  );
  await page.getByTestId('keyword-filter').fill('');

  // The CSV export holds what the table shows, as the API answers it.
  const download = page.waitForEvent('download');
  await page.getByTestId('keywords-csv').click();
  const csv = (await readDownload(await download)).trimEnd().split('\r\n');
  expect(csv[0]).toBe('keywordId,term,country,rank,rankDelta,volume,difficulty');
  expect(
    csv
      .slice(1)
      .map((line) => line.split(',')[0])
      .sort(),
  ).toEqual(keywords.map((item) => item.keywordId).sort());
});

test('the rank chart compares keywords over a chosen range without a reload, and the URL keeps it', async ({
  page,
  request,
}) => {
  const key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'rank chart spec');
  const keywords: { keywordId: string; term: string }[] = await (
    await request.get(`${API}/apps/${DEMO_APP_ID}/keywords`, { headers: bearer(key) })
  ).json();
  const [first, second] = keywords;
  await signInAs(page, DEMO.email, DEMO.password);
  await page.goto(`/apps/${DEMO_APP_ID}`);
  await expect(page.getByTestId('rank-chart').locator('.recharts-wrapper > svg.recharts-surface')).toBeVisible();
  // Axes read at a glance: rank 1 at the top then round steps, days named by their month, ranks drawn as steps.
  // (recharts draws the ticks' labels apart from their axis; `orientation` says which axis each belongs to.)
  const ticks = page.getByTestId('rank-chart').locator('text.recharts-cartesian-axis-tick-value');
  await expect(ticks.and(page.locator('[orientation="left"]')).first()).toHaveText('1');
  const [top, ...below] = (await ticks.and(page.locator('[orientation="left"]')).allTextContents()).map(Number);
  expect(top).toBe(1);
  const step = below.length > 1 ? below[1]! - below[0]! : (below[0] ?? 1);
  expect([1, 2, 5, 10, 20, 25, 50, 100]).toContain(step);
  expect(below).toEqual(below.map((_, index) => below[0]! + index * step));
  expect(below[0]! % step).toBe(0);
  for (const day of await ticks.and(page.locator('[orientation="bottom"]')).allTextContents())
    expect(day).toMatch(/^(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}( \d{4})?$/);
  await expect(page.getByTestId('rank-chart').locator('path.recharts-line-curve').first()).toHaveAttribute(
    'd',
    /^M[^C]*$/,
  );
  // A marker on the window: a reload would lose it.
  await page.evaluate(() => Object.assign(window, { stillHere: true }));

  await page.getByRole('checkbox', { name: `Chart ${second!.term}` }).check();
  await page.getByTestId('chart-range').selectOption('30');
  await expect(page.getByTestId('rank-chart-caption')).toHaveText(`${first!.term}, ${second!.term} · last 30 days`);
  await expect(page).toHaveURL(new RegExp(`compare=${first!.keywordId}%2C${second!.keywordId}&range=30`));
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  // The chart's lines are the API's histories.
  const history = await (
    await request.get(`${API}/apps/${DEMO_APP_ID}/keywords/${second!.keywordId}/history?days=30`, {
      headers: bearer(key),
    })
  ).json();
  const ranked = history.points.filter((point: { rank: number | null }) => point.rank !== null);
  await expect(page.getByTestId('rank-chart')).toHaveAttribute(
    'aria-label',
    new RegExp(`${second!.term}: #${ranked[0].rank} to #${ranked.at(-1).rank}`),
  );

  // A shared link opens the same chart.
  await page.reload();
  await expect(page.getByTestId('rank-chart-caption')).toHaveText(`${first!.term}, ${second!.term} · last 30 days`);
  await expect(page.getByTestId('chart-range')).toHaveValue('30');
  await expect(page.getByRole('checkbox', { name: `Chart ${second!.term}` })).toBeChecked();

  // A custom range from a day: the days from it to the last day of data.
  await page.getByTestId('chart-range').selectOption('custom');
  await page.getByTestId('chart-range-from').fill(history.points.at(-10).date);
  await expect(page.getByTestId('rank-chart-caption')).toHaveText(`${first!.term}, ${second!.term} · last 10 days`);
  await expect(page).toHaveURL(new RegExp(`range=custom&from=${history.points.at(-10).date}`));
});

test('the rank chart compares the app with its competitors for one keyword, as the history answers it', async ({
  page,
  request,
}) => {
  const key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'competitor chart spec');
  const keywords: { keywordId: string; term: string }[] = await (
    await request.get(`${API}/apps/${DEMO_APP_ID}/keywords`, { headers: bearer(key) })
  ).json();
  const [first, second] = keywords;
  const history: { points: RankPoint[]; competitors: { name: string; points: RankPoint[] }[] } = await (
    await request.get(`${API}/apps/${DEMO_APP_ID}/keywords/${second!.keywordId}/history?days=90`, {
      headers: bearer(key),
    })
  ).json();
  // The demo app's competitors, observed with it since its history began.
  expect(history.competitors.length).toBeGreaterThan(0);
  expect(history.competitors.some((competitor) => competitor.points.some((point) => point.rank !== null))).toBe(true);

  await signInAs(page, DEMO.email, DEMO.password);
  await page.goto(`/apps/${DEMO_APP_ID}`);
  await expect(page.getByTestId('rank-chart').locator('.recharts-wrapper > svg.recharts-surface')).toBeVisible();
  await page.evaluate(() => Object.assign(window, { stillHere: true }));

  await page.getByTestId('chart-vs').selectOption('competitors');
  // Against competitors the chart follows one keyword: ticking another moves it there.
  await page.getByRole('checkbox', { name: `Chart ${second!.term}` }).check();
  await expect(page.getByRole('checkbox', { name: `Chart ${first!.term}` })).not.toBeChecked();
  const lines = [{ name: 'Breathe: Sleep & Meditation', points: history.points }, ...history.competitors];
  const caption = `“${second!.term}”: ${lines.map((line) => line.name).join(', ')} · last 90 days`;
  await expect(page.getByTestId('rank-chart-caption')).toHaveText(caption);
  await expect(page).toHaveURL(new RegExp(`compare=${second!.keywordId}&vs=competitors&range=90`));
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);

  // Each line is the API's series: the app's `points`, and each competitor's.
  const summary = (await page.getByTestId('rank-chart').getAttribute('aria-label')) ?? '';
  for (const line of lines) {
    const ranked = line.points.filter((point) => point.rank !== null);
    expect(summary).toContain(
      ranked.length ? `${line.name}: #${ranked[0]!.rank} to #${ranked.at(-1)!.rank}` : `${line.name}: no rank`,
    );
    // A day without a rank says why, as the API's `status` does: out of the results, or not observed.
    const unobserved = line.points.filter((point) => point.status === 'not_observed').length;
    if (unobserved) expect(summary).toContain(`not observed ${unobserved} day${unobserved === 1 ? '' : 's'}`);
  }

  // A shared link opens the same comparison; back to keywords, the chart compares keywords again.
  await page.reload();
  await expect(page.getByTestId('chart-vs')).toHaveValue('competitors');
  await expect(page.getByTestId('rank-chart-caption')).toHaveText(caption);
  await page.getByTestId('chart-vs').selectOption('keywords');
  await expect(page.getByTestId('rank-chart-caption')).toHaveText(`${second!.term} · last 90 days`);
  await expect(page).not.toHaveURL(/vs=/);
});

test('every API-only view is reachable from the app page, with the API’s numbers', async ({ page, request }) => {
  const key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'app views spec');
  const api = async (path: string) =>
    (await request.get(`${API}/apps/${DEMO_APP_ID}${path}`, { headers: bearer(key) })).json();
  await signInAs(page, DEMO.email, DEMO.password);
  await page.goto(`/apps/${DEMO_APP_ID}`);
  const tabs = page.getByRole('navigation', { name: 'App views' });

  await tabs.getByRole('link', { name: 'Opportunities' }).click();
  const opportunities = await api('/opportunities?limit=50');
  const opportunityRows = page.getByTestId('opportunities-table').locator('tbody tr');
  await expect(opportunityRows).toHaveCount(opportunities.items.length);
  for (const [index, item] of opportunities.items.slice(0, 5).entries()) {
    await expect(opportunityRows.nth(index)).toHaveAttribute('data-term', item.term);
    await expect(opportunityRows.nth(index).getByTestId('opportunity-score')).toHaveText(item.score.toFixed(1));
    await expect(opportunityRows.nth(index)).toContainText(item.reason);
  }

  await tabs.getByRole('link', { name: 'Keyword spy' }).click();
  const spy = await api('/keyword-spy');
  const spyRows = page.getByTestId('keyword-spy-table').locator('tbody tr');
  await expect(spyRows).toHaveCount(spy.keywords.length);
  await expect(spyRows.first()).toContainText(`${spy.keywords[0].term}${spy.keywords[0].rank}`);

  await tabs.getByRole('link', { name: 'Competitors' }).click();
  const competitors = await api('/competitors');
  if (competitors.length)
    await expect(page.getByTestId('competitors-table').locator('tbody tr')).toHaveCount(competitors.length);
  else await expect(page.getByText('No competitors yet.')).toBeVisible();

  await tabs.getByRole('link', { name: 'Ratings' }).click();
  const ratings = await api('/rating-history');
  const lastRating = ratings.points.at(-1);
  await expect(page.getByTestId('rating-average')).toHaveText(`${lastRating.average.toFixed(2)} ★`);
  await expect(page.getByTestId('rating-count')).toHaveText(lastRating.count.toLocaleString('en-US'));
  const shiftDay = (day: string, days: number) =>
    new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
  await page.getByTestId('ratings-range').selectOption('30');
  await expect(page.getByRole('heading', { name: /^Store rating, / })).toHaveText(
    `Store rating, ${shiftDay(lastRating.date, -29)} to ${lastRating.date}`,
  );
  // The average's axis is the whole scale, so that a drift of a tenth of a star looks like one.
  await expect(
    page.getByTestId('rating-chart').locator('text.recharts-cartesian-axis-tick-value[orientation="left"]'),
  ).toHaveText(['1', '2', '3', '4', '5']);

  await tabs.getByRole('link', { name: 'Category rank' }).click();
  const category = await api('/category-rank?days=30');
  const latest = category.points.at(-1).rank;
  await expect(page.getByTestId('category-latest')).toContainText(
    latest === null ? 'outside the top 200' : `#${latest} on ${category.to}`,
  );
  // Its range control (the same as every chart's) is walked in dashboard-walk.spec.ts, on an account of its own: the
  // demo user's pages are read by many tests at once, within one user's dashboard calls a minute.
  await expect(page.getByTestId('category-range')).toHaveValue('30');

  await tabs.getByRole('link', { name: 'Metadata' }).click();
  const [listing, changelog] = await Promise.all([api('/metadata'), api('/metadata/changelog')]);
  await expect(page.getByTestId('listing').locator('dd[data-field="title"]')).toHaveText(listing.title);
  await expect(page.getByTestId('changelog').locator('li')).toHaveCount(changelog.changes.length);
  // Fields by their names in words, never the API's; a keyword field as the keywords added and removed.
  const changelogText = (await page.getByTestId('changelog').textContent()) ?? '';
  expect(changelogText).not.toMatch(/whatsNew|keywordField|hasVideo|screenshotsCount|truefalse|falsetrue/);
  const keywordChange = (changelog.changes as { field: string; before: string | null; after: string | null }[]).find(
    (change) => change.field === 'keywordField',
  );
  if (keywordChange) {
    const entry = page.getByTestId('changelog').locator('li[data-field="keywordField"]').first();
    await expect(entry).toContainText('Keyword field');
    await expect(entry.locator('.keyword-change')).toContainText(/Added:|Removed:|reordered/);
  }

  await tabs.getByRole('link', { name: 'Reviews' }).click();
  // The demo app is owned through its (simulated) store account: its reviews open on the store account's, every one
  // (issue 67); the public feed is a click away, and the rest compares that with the API's default list.
  const owned = await api('/reviews?pageSize=20&source=store_account');
  await expect(page.getByTestId('source-store-account')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('reviews-table').locator('tbody tr')).toHaveCount(owned.items.length);
  await expect(page.getByTestId('fact-reviews-held')).toHaveText(owned.total.toLocaleString('en-US'));
  await page.getByTestId('source-public').click();
  await expect(page.getByTestId('source-public')).toHaveAttribute('aria-current', 'page');
  const [insights, reviews, negative] = await Promise.all([
    api('/reviews/insights'),
    api('/reviews?pageSize=20'),
    api('/reviews?pageSize=20&sentiment=negative&rating=1'),
  ]);
  await expect(page.getByTestId('share-positive')).toHaveText(
    `${Math.round(insights.sentiment.positive.share * 100)} %`,
  );
  await expect(page.getByTestId('reviews-table').locator('tbody tr')).toHaveCount(reviews.items.length);
  await expect(page.getByTestId('reviews-table').locator('tbody tr').first()).toHaveAttribute(
    'data-review-id',
    reviews.items[0].id,
  );
  // One store rating and one count of reviews everywhere, each said with what it counts.
  await expect(page.getByTestId('fact-store-rating')).toHaveText(`${lastRating.average.toFixed(2)} ★`);
  await expect(page.getByTestId('fact-reviews-held')).toHaveText(reviews.total.toLocaleString('en-US'));
  await expect(page.getByTestId('fact-period-reviews')).toHaveText(
    `${insights.reviewCount.toLocaleString('en-US')} · ${insights.averageRating.toFixed(2)} ★`,
  );
  await expect(page.getByRole('heading', { name: /^Reviews/ })).toContainText(
    `(${reviews.total.toLocaleString('en-US')} held)`,
  );
  // Each choice applies at once.
  await page.locator('select[name="rating"]').selectOption('1');
  await expect(page).toHaveURL(/rating=1/);
  await page.locator('select[name="sentiment"]').selectOption('negative');
  await expect(page).toHaveURL(/rating=1&sentiment=negative/);
  await expect(page.getByTestId('fact-reviews-held')).toHaveText(reviews.total.toLocaleString('en-US'));
  await expect(page.getByTestId('reviews-table').locator('tbody tr')).toHaveCount(negative.items.length);
  if (negative.totalPages > 1) {
    await page.getByRole('link', { name: 'Next' }).click();
    await expect(page.getByTestId('review-page')).toHaveText(`Page 2 of ${negative.totalPages}`);
  }
});

test('an app of another account is not found in the dashboard either', async ({ page }) => {
  await signInAs(page, DEMO.email, DEMO.password);
  for (const view of ['', '/reviews']) {
    const response = await page.goto(`/apps/3a9f5c0d-7e4b-4b1d-8c6f-9d8e7f6a5b44${view}`);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'App not found' })).toBeVisible();
  }
});

test('a storefront read through the API is on the app page at once; the picker switches every view to it; a storefront is added and removed on the page', async ({
  page,
  request,
}) => {
  const owner = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    owner.email,
    '--url',
    'https://apps.apple.com/us/app/storefront-picker/id1500004201',
  );
  const key = await createKey(owner.session, 'read-only', 'storefronts');
  // The first read in GB observes it (issue 41).
  const listing = await request.get(`${API}/apps/${appId}/metadata?country=GB`, { headers: bearer(key) });
  expect(listing.status()).toBe(200);
  const gbTitle = ((await listing.json()) as { title: string }).title;

  await signInAs(page, owner.email, owner.password);
  await page.goto(`/apps/${appId}`);
  const picker = page.getByTestId('storefront-select');
  await expect(picker.locator('option')).toHaveText(['GB', 'US (primary)']);
  await picker.selectOption('GB');
  await expect(page).toHaveURL(/\?country=GB$/);
  await expect(page.getByRole('heading', { name: 'Tracked keywords (GB)' })).toBeVisible();
  await page.getByRole('navigation', { name: 'App views' }).getByRole('link', { name: 'Metadata' }).click();
  await expect(page.getByRole('heading', { name: 'Store listing (GB)' })).toBeVisible();
  await expect(page.getByTestId('listing').locator('[data-field="title"]')).toHaveText(gbTitle);
  await expect(picker).toHaveValue('GB');

  // Add storefront observes it before answering, and the page shows it.
  const add = page.getByRole('form', { name: 'Add storefront' });
  await add.getByLabel('Track in storefront').fill('de');
  await add.getByRole('button', { name: 'Add storefront' }).click();
  await expect(page).toHaveURL(/\?country=DE$/);
  await expect(page.getByRole('heading', { name: 'Store listing (DE)' })).toBeVisible();
  await expect(picker.locator('option')).toHaveText(['DE', 'GB', 'US (primary)']);

  // Removing it frees the plan's storefront; the page goes back to the primary one.
  await page.getByRole('button', { name: 'Stop tracking DE' }).click();
  await page
    .getByRole('alertdialog', { name: 'Stop tracking the app in DE?' })
    .getByRole('button', { name: 'Stop tracking DE' })
    .click();
  await expect(page.getByRole('heading', { name: 'Store listing (US)' })).toBeVisible();
  await expect(picker.locator('option')).toHaveText(['GB', 'US (primary)']);
  expect(
    ((await (await request.get(`${API}/apps/${appId}`, { headers: bearer(key) })).json()) as { storefronts: string[] })
      .storefronts,
  ).toEqual(['GB', 'US']);
});
