// Issue 64's items walked at a desktop's width and a phone's: the actions work where the data is shown, the numbers
// agree, and no table row on a phone is taller than 120 px. (Adding competitors, research and tracking terms have
// their own specs at both widths; every-screen.spec.ts checks every page's rows and axe.)
import { expect, test, type Page } from '@playwright/test';
import { addAppFor, chooseRowAction, newAccount, openCreateKeyForm, signInAs, trpcQuery } from '../helpers';

async function rowsFit(page: Page, table: string) {
  for (const row of await page.getByTestId(table).locator('tbody tr').all()) {
    const box = await row.boundingBox();
    if (box) expect(box.height, `a row of ${table}`).toBeLessThanOrEqual(120);
  }
}

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test('keys: created in a dialog, acted on from a menu with danger last, revoked from its own page', async ({
      page,
    }) => {
      const { email, password } = await newAccount('pro');
      await signInAs(page, email, password);
      await page.goto('/settings/api');
      const form = await openCreateKeyForm(page);
      await form.getByLabel('Name').fill('walk key');
      await form.getByRole('button', { name: 'Create key' }).click();
      await expect(page.getByTestId('new-secret')).toBeVisible();
      await page.getByRole('button', { name: 'I have saved it' }).click();
      await rowsFit(page, 'keys-table');

      // The row's actions in one menu, the dangerous one last and not red until its confirmation.
      await page.getByRole('button', { name: 'Actions for walk key' }).click();
      await expect(page.getByRole('menuitem')).toHaveText(['Roll', 'Restrict', 'Revoke']);
      await page.keyboard.press('Escape');
      await chooseRowAction(page, 'walk key', 'Restrict');
      const dialog = page.getByRole('alertdialog', { name: /Restrict key/ });
      await dialog.getByLabel('Monthly credit budget').fill('75');
      await dialog.getByRole('button', { name: 'Save restrictions' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('keys-table')).toContainText('0 of 75 credits this month');

      // Its own page says what it is, and revokes it.
      await page.getByTestId('keys-table').getByRole('link', { name: 'walk key' }).click();
      const facts = page.getByTestId('key-facts');
      await expect(facts).toContainText('read-only');
      await expect(facts).toContainText('75 credits');
      await page.getByRole('button', { name: 'Revoke', exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
      await expect(page.getByTestId('key-page-status')).toHaveText('revoked');

      // The security log says it in words.
      await page.goto('/settings/security');
      await expect(page.getByTestId('security-log-table').locator('tr[data-kind="api_key.revoked"]')).toContainText(
        `${email} revoked key “walk key`,
      );
      await rowsFit(page, 'security-log-table');
    });

    // An account of its own (the demo user's pages are many other tests' too, within one user's calls a minute).
    test('an app’s data reads the same everywhere, in words, with one range control', async ({ page }) => {
      const { email, password, session } = await newAccount('pro');
      const appId = await addAppFor(email, 'https://apps.apple.com/us/app/focus-timer/id1500000011');
      await expect
        .poll(
          async () =>
            (await trpcQuery<{ dataThrough: string | null }[]>(session, 'apps.list?input=%7B%7D'))[0]?.dataThrough ??
            null,
          { message: 'the app’s backfill' },
        )
        .not.toBeNull();
      await signInAs(page, email, password);
      await page.goto(`/apps/${appId}/ratings`);
      const storeRating = (await page.getByTestId('rating-average').textContent())!.trim();
      await page.getByTestId('ratings-range').selectOption('custom');
      await expect(page.getByTestId('ratings-range-from')).toBeVisible();
      await expect(page.getByTestId('ratings-range-to')).toBeVisible();

      await page.goto(`/apps/${appId}/reviews`);
      await expect(page.getByTestId('fact-store-rating')).toHaveText(storeRating);
      await rowsFit(page, 'reviews-table');

      await page.goto(`/apps/${appId}/metadata`);
      const changelog = page.getByTestId('changelog');
      await expect(changelog.locator('li').first()).toBeVisible();
      expect(await changelog.textContent()).not.toMatch(/whatsNew|keywordField|hasVideo|truefalse|falsetrue/);

      await page.goto(`/apps/${appId}/category-rank`);
      await page.getByTestId('category-range').selectOption('365');
      await expect(page).toHaveURL(/range=365/);

      // Remove app is the overview's last panel, and its button is not red.
      await page.goto(`/apps/${appId}`);
      const remove = page.getByTestId('remove-app');
      await expect(remove).not.toHaveClass(/danger/);
      const panels = page.locator('main section.panel');
      await expect(panels.last()).toContainText('Remove this app');
    });

    test('billing offers no operator command, and the docs know who is signed in', async ({ page }) => {
      const { email, password } = await newAccount('pro');
      await signInAs(page, email, password);
      await page.goto('/settings/billing');
      await expect(page.locator('main')).not.toContainText('npm run');
      await expect(page.getByTestId('tiers')).toContainText('Competitors per app');
      await page.goto('/docs');
      const header = page.locator('header').first();
      await expect(header).not.toContainText('Start a free trial');
      if (width >= 900) {
        await expect(header.getByRole('link', { name: 'Dashboard' })).toBeVisible();
        await expect(header.getByRole('link', { name: 'MCP' })).toBeVisible();
      }
      const firstBlock = page.locator('.code-block-frame').first();
      await expect(firstBlock.getByRole('button', { name: /Copy/ })).toBeVisible();
    });
  });
}
