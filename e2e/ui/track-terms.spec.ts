// Acting where the data is: terms tracked from Opportunities (at a desktop's width) and from Keyword spy (at a
// phone's), with what they use of the plan's keywords said first, and a choice past the plan's room refused before it
// is sent.
import { expect, test } from '@playwright/test';
import { addAppFor, newAccount, signInAs, trpc, trpcQuery } from '../helpers';

const FREE_KEYWORDS = 25;

test('terms are tracked from Opportunities and Keyword spy, within the plan’s keywords', async ({ page }) => {
  const { email, password, session } = await newAccount('free');
  const appId = await addAppFor(email, 'https://apps.apple.com/us/app/focus-timer/id1500000011');
  await expect
    .poll(
      async () =>
        (await trpcQuery<{ dataThrough: string | null }[]>(session, 'apps.list?input=%7B%7D'))[0]?.dataThrough ?? null,
      {
        message: 'the app’s backfill',
      },
    )
    .not.toBeNull();
  const trackedTerms = async () =>
    (
      await trpcQuery<{ term: string }[]>(
        session,
        `keywords.list?input=${encodeURIComponent(JSON.stringify({ id: appId }))}`,
      )
    ).map((keyword) => keyword.term);
  // Most of the plan's room taken, so that the table's untracked terms are more than fit.
  await trpc(session, 'keywords.add', {
    id: appId,
    country: 'US',
    terms: Array.from({ length: 20 }, (_, index) => `room taken ${index + 1}`),
  });
  const trackedBefore = (await trackedTerms()).length;

  await page.setViewportSize({ width: 1440, height: 900 });
  await signInAs(page, email, password);
  await page.goto(`/apps/${appId}/opportunities`);
  const bar = page.getByTestId('track-bar');
  const room = page.getByTestId('track-room');
  await expect(room).toHaveText('Choose terms to track them.');
  await expect(bar.getByRole('button', { name: 'Track' })).toBeDisabled();
  const rows = page.getByTestId('opportunities-table').locator('tbody tr');
  const untracked = rows.filter({ has: page.getByRole('checkbox') });
  const chosen = [await untracked.nth(0).getAttribute('data-term'), await untracked.nth(1).getAttribute('data-term')];
  for (const term of chosen) await page.getByRole('checkbox', { name: `Choose “${term}” to track` }).check();
  const left = FREE_KEYWORDS - trackedBefore;
  await expect(room).toHaveText(
    `Uses 2 of the ${left} left on the Free plan (${trackedBefore} of ${FREE_KEYWORDS} tracked).`,
  );

  // Every untracked term of the table at once is more than the plan has room for: said, and not sent.
  const untrackedCount = await untracked.count();
  expect(untrackedCount, 'more untracked opportunities than the Free plan’s room').toBeGreaterThan(left);
  await page.getByRole('checkbox', { name: 'Choose every untracked term' }).check();
  await expect(room).toContainText(`Only ${left} keywords more fit on the Free plan`);
  await expect(room.getByRole('link', { name: 'Plans' })).toHaveAttribute('href', '/settings/billing');
  await expect(bar.getByRole('button', { name: `Track ${untrackedCount} keywords` })).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Clear the chosen terms' }).uncheck();
  for (const term of chosen) await page.getByRole('checkbox', { name: `Choose “${term}” to track` }).check();

  await bar.getByRole('button', { name: 'Track 2 keywords' }).click();
  const dialog = page.getByTestId('track-dialog');
  await expect(dialog.getByRole('heading')).toHaveText('Track 2 keywords in US?');
  await expect(dialog).toContainText(chosen.join(', '));
  await expect(dialog).toContainText('No credits');
  await dialog.getByRole('button', { name: 'Track' }).click();
  await expect(page.getByText('2 keywords tracked in US')).toBeVisible();
  for (const term of chosen) await expect(rows.filter({ hasText: term! }).first()).toContainText('Tracked');
  expect(await trackedTerms()).toEqual(expect.arrayContaining(chosen));
  await expect(room).toHaveText('Choose terms to track them.');

  // Keyword spy, on a phone: one term, and the room counts the two just tracked.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/apps/${appId}/keyword-spy`);
  const spyRow = page
    .getByTestId('keyword-spy-table')
    .locator('tbody tr')
    .filter({ has: page.getByRole('checkbox') })
    .first();
  const term = await spyRow.getAttribute('data-term');
  await spyRow.getByRole('checkbox').check();
  await expect(room).toHaveText(
    `Uses 1 of the ${left - 2} left on the Free plan (${trackedBefore + 2} of ${FREE_KEYWORDS} tracked).`,
  );
  await page.getByRole('button', { name: 'Track 1 keyword' }).click();
  await dialog.getByRole('button', { name: 'Track' }).click();
  await expect(page.getByText('1 keyword tracked in US')).toBeVisible();
  await expect(page.getByTestId('keyword-spy-table').locator(`tr[data-term="${term}"]`)).toContainText('Tracked');
  expect(await trackedTerms()).toContain(term);
});
