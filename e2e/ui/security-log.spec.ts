// Settings → Security log in Chromium: what the user does in the dashboard (a failed and a made sign-in, a key
// created and restricted, a webhook endpoint added, a sign-out) and what the operator does with the CLI (the plan, the
// user's sessions ended) are each there, with who and from where; filtered by kind; exported as CSV.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { admin, newAccount, signInAs, openCreateKeyForm, chooseRowAction, openEndpointForm } from '../helpers';

function row(page: Page, kind: string) {
  return page.getByTestId('security-log-table').locator(`tr[data-kind="${kind}"]`);
}

test('the dashboard’s and the operator’s changes of access are each logged, filtered and exported', async ({
  page,
}) => {
  const { email, password } = await newAccount('pro');
  // A failed sign-in first, then the real one.
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('p[role=alert]')).toBeVisible();
  await signInAs(page, email, password);

  await page.goto('/settings/api');
  const form = await openCreateKeyForm(page);
  await form.getByLabel('Name').fill('logged key');
  await form.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByTestId('new-secret')).toBeVisible();
  const secret = (await page.getByTestId('secret-value').textContent())!.trim();
  await chooseRowAction(page, 'logged key', 'Restrict');
  const dialog = page.getByRole('alertdialog', { name: /Restrict key/ });
  await dialog.getByLabel('Monthly credit budget').fill('250');
  await dialog.getByRole('button', { name: 'Save restrictions' }).click();
  await expect(dialog).toBeHidden();

  await admin('plan', 'set', '--email', email, '--plan', 'business');

  await page.getByRole('link', { name: 'Security log' }).click();
  await expect(page.getByRole('heading', { name: 'Security log' })).toBeVisible();
  await expect(row(page, 'session.sign_in_failed').getByTestId('event-sentence')).toHaveText(
    `A sign-in as ${email} failed: wrong password`,
  );
  // The sign-in of the helper that made the account (over HTTP), then the browser's, newest first.
  await expect(row(page, 'session.signed_in')).toHaveCount(2);
  await expect(row(page, 'session.signed_in').first()).toContainText(email);
  await expect(row(page, 'session.signed_in').first()).toContainText(/::1|127\.0\.0\.1/);
  // The browser named, the whole user agent in the entry's details.
  await expect(row(page, 'session.signed_in').first()).toContainText(/Chrome( Headless)? \d+ on Linux/);
  await expect(row(page, 'session.signed_in').first().locator('details dd.mono').first()).toBeHidden();
  await row(page, 'session.signed_in').first().getByText('Details').click();
  await expect(row(page, 'session.signed_in').first()).toContainText('Mozilla/5.0');
  await expect(row(page, 'api_key.created')).toContainText(`logged key (${secret.slice(0, 13)}…${secret.slice(-4)})`);
  await expect(row(page, 'api_key.restricted').getByTestId('event-sentence')).toHaveText(
    `${email} changed the restrictions of key “logged key (${secret.slice(0, 13)}…${secret.slice(-4)})”: monthly credit budget no budget → 250`,
  );
  await expect(row(page, 'api_key.restricted')).toContainText(email);
  await expect(row(page, 'plan.changed')).toContainText('Operator CLI');
  await expect(row(page, 'plan.changed')).toContainText('changed the plan from pro to business');
  expect(await page.getByTestId('security-log-table').textContent()).not.toMatch(/[{}"]|monthlyBudget/);
  expect(await page.content()).not.toContain(secret);

  // Filtered by kind.
  const filter = page.getByRole('form', { name: 'Filter the security log' });
  await filter.getByLabel('Event').selectOption({ label: 'API key created' });
  await expect(page.getByTestId('security-log-count')).toHaveText('1 entry.');
  await expect(row(page, 'session.signed_in')).toHaveCount(0);

  // Exported: every entry the filter matches.
  const download = page.waitForEvent('download');
  await page.getByTestId('security-log-export').click();
  const csv = readFileSync(await (await download).path(), 'utf8')
    .trim()
    .split('\r\n');
  expect(csv[0]).toBe('time,event,actor,ip_address,user_agent,target,change,request_id,summary');
  expect(csv).toHaveLength(2);
  expect(csv[1]).toContain('api_key.created');

  // Signed out, then the operator ends the user's sessions: both are in the log of the next sign-in.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in|\/$/);
  await admin('sessions', 'end', '--email', email);
  await signInAs(page, email, password);
  await page.goto('/settings/security');
  await expect(row(page, 'session.signed_out')).toContainText(email);
  await expect(row(page, 'session.signed_in')).toHaveCount(3);
  await expect(row(page, 'session.ended')).toContainText('Operator CLI');
  // The browser's session was signed out; the helper's (over HTTP) was still live.
  await expect(row(page, 'session.ended')).toContainText('ended 1 session');
});

test('keys rolled and revoked (in the dashboard and by the operator) and a webhook endpoint’s whole life are each logged', async ({
  page,
}) => {
  const { email, password } = await newAccount('pro');
  await signInAs(page, email, password);

  // Two keys: one rolled then revoked in the dashboard, one revoked by the operator's CLI.
  await page.goto('/settings/api');
  for (const name of ['rolled key', 'operator key']) {
    const form = await openCreateKeyForm(page);
    await form.getByLabel('Name').fill(name);
    await form.getByRole('button', { name: 'Create key' }).click();
    // The table lists it once the new secret is shown (the box shows the previous one until then).
    await expect(page.getByTestId('keys-table')).toContainText(name);
  }
  const operatorSecret = (await page.getByTestId('secret-value').textContent())!.trim();
  await chooseRowAction(page, 'rolled key', 'Roll');
  const rollDialog = page.getByRole('alertdialog', { name: 'Roll key' });
  await rollDialog.getByRole('combobox').selectOption('now');
  await rollDialog.getByRole('button', { name: 'Roll key' }).click();
  await expect(page.getByTestId('new-secret')).toContainText('The old secret no longer works');
  // The successor's row, once the page has refreshed: until then the table still shows the rolled key's, whose Revoke
  // would revoke a key the roll already ended.
  const successor = (await page.getByTestId('secret-value').textContent())!.trim();
  const successorRow = page
    .locator(`tr[data-key-prefix="${successor.slice(0, 13)}"]`)
    .filter({ hasText: successor.slice(-4) });
  await chooseRowAction(successorRow, 'rolled key', 'Revoke');
  await page
    .getByRole('alertdialog', { name: /Revoke key/ })
    .getByRole('button', { name: 'Revoke key' })
    .click();
  await expect(page.getByRole('button', { name: 'Actions for rolled key' })).toHaveCount(0);
  await admin('key', 'revoke', '--email', email, '--key-prefix', operatorSecret.slice(0, 13));

  // A webhook endpoint: added, disabled, its secret rotated, deleted.
  const url = 'http://127.0.0.1:9/hooks/logged';
  await page.goto('/settings/webhooks');
  const add = await openEndpointForm(page);
  await add.getByLabel('Endpoint URL (HTTPS)').fill(url);
  await add.getByRole('button', { name: 'Add endpoint' }).click();
  const webhookSecret = (await page.getByTestId('webhook-secret-value').textContent())!.trim();
  const endpoint = page.locator(`[data-endpoint-url="${url}"]`);
  await endpoint.getByRole('button', { name: 'Disable' }).click();
  await expect(endpoint.getByTestId('webhook-status')).toHaveText('disabled');
  await endpoint.getByRole('button', { name: 'Rotate secret' }).click();
  await page
    .getByRole('alertdialog', { name: 'Rotate the signing secret?' })
    .getByRole('button', { name: 'Rotate secret' })
    .click();
  await expect(page.getByTestId('webhook-secret')).toContainText('previous one also signs until');
  const rotatedSecret = (await page.getByTestId('webhook-secret-value').textContent())!.trim();
  await endpoint.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('alertdialog', { name: /Delete the endpoint/ })
    .getByRole('button', { name: /Delete/ })
    .click();
  await expect(endpoint).toHaveCount(0);

  await page.goto('/settings/security');
  await expect(row(page, 'api_key.created')).toHaveCount(2);
  await expect(row(page, 'api_key.rolled')).toContainText('rolled key');
  await expect(row(page, 'api_key.rolled')).toContainText(email);
  // The rolled key's successor, revoked by the user; the other key, by the operator.
  await expect(row(page, 'api_key.revoked')).toHaveCount(2);
  await expect(row(page, 'api_key.revoked').filter({ hasText: 'Operator CLI' })).toContainText('operator key');
  await expect(row(page, 'api_key.revoked').filter({ hasText: email })).toContainText('rolled key');
  await expect(row(page, 'webhook_endpoint.created')).toContainText(url);
  await expect(row(page, 'webhook_endpoint.changed')).toContainText('enabled yes → no');
  await expect(row(page, 'webhook_endpoint.secret_rotated')).toContainText(url);
  await expect(row(page, 'webhook_endpoint.deleted')).toContainText(url);
  for (const kind of [
    'webhook_endpoint.created',
    'webhook_endpoint.changed',
    'webhook_endpoint.secret_rotated',
    'webhook_endpoint.deleted',
    'api_key.rolled',
  ]) {
    await expect(row(page, kind)).toContainText(email);
  }
  const content = await page.content();
  for (const secret of [operatorSecret, webhookSecret, rotatedSecret]) expect(content).not.toContain(secret);
});
