// Signing in never sends the browser off-site (issue 18 §8: `callbackUrl=//evil.example/x` did).
import { expect, test } from '@playwright/test';
import { newAccount } from '../helpers';

for (const callbackUrl of ['//evil.example/x', '/\\evil.example', 'https://evil.example/']) {
  test(`a callbackUrl of ${JSON.stringify(callbackUrl)} lands on the dashboard`, async ({ page }) => {
    const { email, password } = await newAccount('pro');
    await page.goto(`/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/^http:\/\/localhost:\d+\/apps$/);
  });
}

test('a same-origin callbackUrl is followed', async ({ page }) => {
  const { email, password } = await newAccount('pro');
  await page.goto(`/sign-in?callbackUrl=${encodeURIComponent('/settings/api')}`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/api$/);
});
