// Settings → Security log in Chromium: what the user does in the dashboard (a failed and a made sign-in, a key
// created and restricted, a webhook endpoint added, a sign-out) and what the operator does with the CLI (the plan, the
// user's sessions ended) are each there, with who and from where; filtered by kind; exported as CSV.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { admin, newAccount, signInWithForm } from '../helpers';

function row(page: Page, kind: string) {
  return page.getByTestId('security-log-table').locator(`tr[data-kind="${kind}"]`);
}

test('the dashboard’s and the operator’s changes of access are each logged, filtered and exported', async ({ page }) => {
  test.setTimeout(120_000);
  const { email, password } = await newAccount('pro');
  // A failed sign-in first, then the real one.
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('p[role=alert]')).toBeVisible();
  await signInWithForm(page, email, password);

  await page.goto('/settings/api');
  const form = page.getByRole('form', { name: 'Create key' });
  await form.getByLabel('Name').fill('logged key');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('new-secret')).toBeVisible();
  const secret = (await page.getByTestId('secret-value').textContent())!.trim();
  await page.getByRole('button', { name: /^Restrict logged key/ }).click();
  const dialog = page.getByRole('alertdialog', { name: /Restrict key/ });
  await dialog.getByLabel('Monthly credit budget').fill('250');
  await dialog.getByRole('button', { name: 'Save restrictions' }).click();
  await expect(dialog).toBeHidden();

  await admin('plan', 'set', '--email', email, '--plan', 'business');

  await page.getByRole('link', { name: 'Security log' }).click();
  await expect(page.getByRole('heading', { name: 'Security log' })).toBeVisible();
  await expect(row(page, 'session.sign_in_failed')).toContainText('Someone signing in');
  // The sign-in of the helper that made the account (over HTTP), then the browser's, newest first.
  await expect(row(page, 'session.signed_in')).toHaveCount(2);
  await expect(row(page, 'session.signed_in').first()).toContainText(email);
  await expect(row(page, 'session.signed_in').first()).toContainText(/::1|127\.0\.0\.1/);
  await expect(row(page, 'session.signed_in').first()).toContainText('Mozilla/5.0');
  await expect(row(page, 'api_key.created')).toContainText(`logged key (${secret.slice(0, 13)}…${secret.slice(-4)})`);
  await expect(row(page, 'api_key.restricted')).toContainText('monthlyBudget: null → 250');
  await expect(row(page, 'api_key.restricted')).toContainText(email);
  await expect(row(page, 'plan.changed')).toContainText('Operator CLI');
  await expect(row(page, 'plan.changed')).toContainText('plan: pro → business');
  expect(await page.content()).not.toContain(secret);

  // Filtered by kind.
  const filter = page.getByRole('form', { name: 'Filter the security log' });
  await filter.getByLabel('Event').selectOption({ label: 'API key created' });
  await filter.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('security-log-count')).toHaveText('1 entry.');
  await expect(row(page, 'session.signed_in')).toHaveCount(0);

  // Exported: every entry the filter matches.
  const download = page.waitForEvent('download');
  await page.getByTestId('security-log-export').click();
  const csv = readFileSync(await (await download).path(), 'utf8').trim().split('\r\n');
  expect(csv[0]).toBe('time,event,actor,ip_address,user_agent,target,change,request_id');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain('api_key.created');

  // Signed out, then the operator ends the user's sessions: both are in the log of the next sign-in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in|\/$/);
  await admin('sessions', 'end', '--email', email);
  await signInWithForm(page, email, password);
  await page.goto('/settings/security');
  await expect(row(page, 'session.signed_out')).toContainText(email);
  await expect(row(page, 'session.signed_in')).toHaveCount(3);
  await expect(row(page, 'session.ended')).toContainText('Operator CLI');
  // The browser's session was signed out; the helper's (over HTTP) was still live.
  await expect(row(page, 'session.ended')).toContainText('sessionsEnded: 1');
});
