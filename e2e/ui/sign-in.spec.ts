// Signing in never sends the browser off-site (issue 18 §8: `callbackUrl=//evil.example/x` did), and a browser that
// signed in before is not kept out by someone else's wrong passwords (docs/api-decisions.md, "Sign-in limit").
import { expect, test } from '@playwright/test';
import { newAccount, signInWithForm } from '../helpers';

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

test('a browser that signed in before keeps signing in while its email is blocked on this network; another browser is told to wait', async ({
  page,
  browser,
}) => {
  const { email, password } = await newAccount('pro');
  await signInWithForm(page, email, password);
  const known = (await page.context().cookies()).find((cookie) => cookie.name.startsWith('aso-known-browser-'));
  expect(known).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Lax' });
  expect(known!.expires - Date.now() / 1000).toBeGreaterThan(364 * 24 * 3600);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);

  // Five wrong passwords in another browser on this machine block the email from this address for 15 minutes.
  const stranger = await browser.newPage();
  await stranger.goto('/sign-in');
  await stranger.getByLabel('Email').fill(email);
  for (let guess = 0; guess < 5; guess++) {
    await stranger.getByLabel('Password').fill(`guess ${guess}`);
    await stranger.getByRole('button', { name: 'Sign in' }).click();
    await expect(stranger.getByText('The email or password is not correct.')).toBeVisible();
  }
  await stranger.getByLabel('Password').fill(password);
  await stranger.getByRole('button', { name: 'Sign in' }).click();
  await expect(stranger.getByText('Too many failed sign-ins from this network')).toBeVisible();
  await stranger.close();

  await signInWithForm(page, email, password);
});
