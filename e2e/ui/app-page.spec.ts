// The app page shows the numbers the API answers for the same account.
import { expect, test } from '@playwright/test';
import { API, bearer, createKey, DEMO, DEMO_APP_ID, signIn, signInWithForm } from '../helpers';

test('keywords table, ASO score and reviews match the API', async ({ page, request }) => {
  const key = await createKey(await signIn(DEMO.email, DEMO.password), 'read-only', 'app page spec');
  await signInWithForm(page, DEMO.email, DEMO.password);
  await page.getByRole('link', { name: 'Breathe: Sleep & Meditation', exact: true }).first().click();
  await expect(page).toHaveURL(new RegExp(`/apps/${DEMO_APP_ID}`));

  const keywords: { keywordId: string; term: string; rank: number | null; rankDelta: number; volume: number | null; difficulty: number | null }[] = await (
    await request.get(`${API}/apps/${DEMO_APP_ID}/keywords`, { headers: bearer(key) })
  ).json();
  const rows = page.getByTestId('keywords-table').locator('tbody tr');
  await expect(rows).toHaveCount(keywords.length);
  for (const [index, item] of keywords.entries()) {
    const row = rows.nth(index);
    await expect(row).toHaveAttribute('data-keyword-id', item.keywordId);
    await expect(row.locator('td').first()).toHaveText(item.term);
    await expect(row.getByTestId('rank')).toHaveText(item.rank === null ? '—' : String(item.rank));
    await expect(row.getByTestId('rank-delta')).toHaveAttribute('data-value', String(item.rankDelta));
    await expect(row.getByTestId('volume')).toHaveText(item.volume === null ? '—' : item.volume.toLocaleString('en-US'));
    await expect(row.getByTestId('difficulty')).toHaveText(item.difficulty === null ? '—' : String(item.difficulty));
  }

  const score = await (await request.get(`${API}/apps/${DEMO_APP_ID}/aso-score`, { headers: bearer(key) })).json();
  await expect(page.getByTestId('aso-score-value')).toHaveText(String(score.score));

  const reviews = await (await request.get(`${API}/apps/${DEMO_APP_ID}/reviews?pageSize=10`, { headers: bearer(key) })).json();
  await expect(page.getByTestId('reviews-table').locator('tr')).toHaveCount(reviews.items.length);
  await expect(page.getByTestId('reviews-table').locator('tr').first()).toContainText(reviews.items[0].title);

  // The chart draws the selected keyword's history.
  await expect(page.getByTestId('rank-chart').locator('svg.recharts-surface')).toBeVisible();
  const second = keywords[1]!;
  await page.getByRole('link', { name: second.term, exact: true }).click();
  await expect(page.getByRole('heading', { name: `Rank of “${second.term}”, last 90 days` })).toBeVisible();
});

test('an app of another account is not found in the dashboard either', async ({ page }) => {
  await signInWithForm(page, DEMO.email, DEMO.password);
  const response = await page.goto('/apps/3a9f5c0d-7e4b-4b1d-8c6f-9d8e7f6a5b44');
  expect(response?.status()).toBe(404);
});
