// Competitors chosen where they are shown: added from the store page address in a dialog, described by the store
// (category and rating), removed with a confirmation; at a desktop's width and at a phone's.
import { expect, test } from '@playwright/test';
import { addAppFor, newAccount, signInAs } from '../helpers';

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  test(`a competitor is added, described and removed in the dashboard at ${width} px`, async ({ page }) => {
    const { email, password } = await newAccount('free');
    const appId = await addAppFor(email, 'https://apps.apple.com/us/app/focus-timer/id1500000011');
    await page.setViewportSize({ width, height });
    await signInAs(page, email, password);
    await page.goto(`/apps/${appId}/competitors`);
    await expect(page.getByText('No competitors yet.')).toBeVisible();

    await page.getByRole('button', { name: 'Add competitor' }).click();
    const form = page.getByRole('form', { name: 'Add competitor' });
    // Not a store page: said in the dialog, nothing added.
    await form.getByLabel('Store page address').fill('https://example.com/app/calm');
    await form.getByRole('button', { name: 'Add competitor' }).click();
    await expect(form.getByRole('alert')).toContainText('apps.apple.com');
    await form.getByLabel('Store page address').fill('https://apps.apple.com/us/app/calm/id571800810');
    await form.getByRole('button', { name: 'Add competitor' }).click();
    await expect(form).toHaveCount(0);

    const row = page.getByTestId('competitors-table').locator('tbody tr');
    await expect(row).toHaveCount(1);
    const cells = row.first().locator('td');
    await expect(cells.nth(1)).toHaveText('App Store');
    await expect(cells.nth(2)).not.toHaveText('—');
    await expect(cells.nth(3)).toContainText('★');
    const rowHeight = (await row.first().boundingBox())!.height;
    expect(rowHeight, 'a competitor’s row').toBeLessThanOrEqual(120);

    await row
      .first()
      .getByRole('button', { name: /^Remove competitor/ })
      .click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('No competitors yet.')).toBeVisible();
  });
}
