// Issue 68 in the dashboard: a member asks for an export on the Exports page, watches it complete without reloading,
// and downloads its file where it is listed; a bad range is a clear message and asks for nothing; an analyst may
// export too (a read of the data).
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { seriousViolations } from '../axe';
import { addAppFor, newAccount, signInAs } from '../helpers';

test('an export is asked for, completes on the page and downloads from its row', async ({ page }) => {
  const { email, password } = await newAccount('pro');
  await addAppFor(email, 'https://apps.apple.com/us/app/exported-in-the-dashboard/id1500006811');
  await signInAs(page, email, password);
  await page.goto('/apps');
  await page.getByRole('link', { name: 'Exports', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Exports', level: 1 })).toBeVisible();
  await expect(page.getByTestId('no-exports')).toBeVisible();

  const form = page.getByRole('form', { name: 'New export' });
  // From after To: the API's problem, in the form's words; nothing asked for.
  await form.getByLabel('From', { exact: true }).fill('2026-06-30');
  await form.getByLabel('To', { exact: true }).fill('2026-06-01');
  await form.getByRole('button', { name: 'Export' }).click();
  await expect(form.getByRole('alert')).toContainText('`from` must be on or before `to`');
  await expect(page.getByTestId('no-exports')).toBeVisible();

  await form.getByLabel('From', { exact: true }).fill('2026-01-01');
  await form.getByLabel('To', { exact: true }).fill('2026-06-30');
  await form.getByLabel('Ratings', { exact: true }).check();
  await form.getByRole('combobox', { name: 'Format' }).selectOption('csv');
  await form.getByRole('button', { name: 'Export' }).click();
  await expect(page.getByText(/Export asked for: .* rows?, 1 credit/)).toBeVisible();

  const row = page.getByTestId('exports-table').locator('tbody tr').first();
  await expect(row).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
  await expect(row).toContainText('Keyword ranks, Ratings');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: 'ratings.csv' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('ratings.csv');
  const text = readFileSync((await download.path())!, 'utf8');
  expect(text.split('\r\n')[0]).toBe('app_id,country,date,average,count');
  expect(await seriousViolations(page)).toEqual([]);
});
