// Research in the dashboard: terms researched through the public API's endpoint at its cost (said first, counted
// after), then tracked from the results; at a desktop's width and a phone's. A Free account is told why it cannot.
import { expect, test } from '@playwright/test';
import { seriousViolations } from '../axe';
import { addAppFor, newAccount, signInAs, trpcQuery } from '../helpers';

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`terms are researched for their credits and tracked from the results at ${width} px`, async ({ page }) => {
    const { email, password, session } = await newAccount('pro');
    const appId = await addAppFor(email, 'https://apps.apple.com/us/app/focus-timer/id1500000011');
    const usage = async () => (await trpcQuery<{ used: number }>(session, 'usage.get?input=%7B%7D')).used;
    const usedBefore = await usage();
    await page.setViewportSize({ width, height });
    await signInAs(page, email, password);
    await page.goto(`/apps/${appId}/research`);
    // Checked here rather than in every-screen.spec.ts, on an account of its own (the demo user's pages are many
    // tests' at once).
    expect(await seriousViolations(page)).toEqual([]);

    const form = page.getByRole('form', { name: 'Research keywords' });
    await form.getByLabel(/Terms to research/).fill('focus timer\npomodoro, focus timer');
    // The cost first: two terms (the repeated one once), 8 credits each.
    await expect(page.getByTestId('research-cost')).toContainText('2 terms: 16 credits.');
    await form.getByRole('button', { name: 'Research for 16 credits' }).click();
    const table = page.getByTestId('research-table');
    await expect(table.locator('tbody tr')).toHaveCount(2);
    await expect(table.locator('tr[data-term="pomodoro"] td').nth(2)).toHaveText(/^[\d,]+$/);
    expect(await usage()).toBe(usedBefore + 16);

    // Tracked from the results, free.
    await table.locator('tr[data-term="pomodoro"]').getByRole('checkbox').check();
    await page.getByTestId('track-selected').click();
    await page.getByTestId('track-dialog-confirm').click();
    await expect(table.locator('tr[data-term="pomodoro"]')).toContainText('Tracked');
    const tracked = await trpcQuery<{ term: string }[]>(
      session,
      `keywords.list?input=${encodeURIComponent(JSON.stringify({ id: appId }))}`,
    );
    expect(tracked.map((keyword) => keyword.term)).toContain('pomodoro');
    expect(await usage()).toBe(usedBefore + 16);
    for (const row of await table.locator('tbody tr').all())
      expect((await row.boundingBox())!.height, 'a research row').toBeLessThanOrEqual(120);
  });
}

test('a Free account is told research costs credits its plan has none of', async ({ page }) => {
  const { email, password } = await newAccount('free');
  const appId = await addAppFor(email, 'https://apps.apple.com/us/app/focus-timer/id1500000011');
  await signInAs(page, email, password);
  await page.goto(`/apps/${appId}/research`);
  await expect(page.getByTestId('research-unavailable')).toContainText('The Free plan has none');
  await expect(page.getByTestId('research-unavailable').getByRole('link', { name: 'choose a plan' })).toBeVisible();
});
