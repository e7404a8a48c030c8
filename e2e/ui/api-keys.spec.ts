// The dashboard in Chromium: sign in, create keys, read the secret once, use it, revoke and roll it.
import { expect, test, type Page } from '@playwright/test';
import {
  admin,
  API,
  bearer,
  chooseRowAction,
  DEMO,
  DEMO_APP_ID,
  newAccount,
  openCreateKeyForm,
  signInAs,
} from '../helpers';

async function createKeyInUi(
  page: Page,
  name: string,
  scope: 'Read-only' | 'Read-write',
  expires?: string,
): Promise<string> {
  await page.goto('/settings/api');
  const form = await openCreateKeyForm(page);
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Scope').selectOption({ label: scope });
  if (expires) await form.getByLabel(/Expires/).fill(expires);
  await form.getByRole('button', { name: 'Create key' }).click();
  const reveal = page.getByTestId('new-secret');
  await expect(reveal).toContainText('you won’t see this secret again');
  const secret = (await page.getByTestId('secret-value').textContent())!.trim();
  expect(secret).toMatch(/^svc_live_[0-9A-Za-z]{38}$/);
  return secret;
}

function rowOf(page: Page, secret: string) {
  return page.locator(`tr[data-key-prefix="${secret.slice(0, 13)}"]`).filter({ hasText: secret.slice(-4) });
}

/** Rolls the key through its dialog and returns the new secret, after checking what the page says of the old one. */
async function rollInUi(page: Page, secret: string, grace: 'now' | '1h', oldSecretNote: string): Promise<string> {
  await rowOf(page, secret)
    .getByRole('button', { name: /^Actions for / })
    .click();
  await page.getByRole('menuitem', { name: 'Roll' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Roll key' });
  await dialog.getByRole('combobox').selectOption(grace);
  await dialog.getByRole('button', { name: 'Roll key' }).click();
  await expect(page.getByTestId('new-secret')).toContainText(oldSecretNote);
  return (await page.getByTestId('secret-value').textContent())!.trim();
}

test('read-only key: created, shown once, used, revoked with confirmation, then refused', async ({ page, request }) => {
  await signInAs(page, DEMO.email, DEMO.password);
  const secret = await createKeyInUi(page, 'UI read-only', 'Read-only');

  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const row = rowOf(page, secret);
  await expect(row).toContainText('UI read-only');
  await expect(row).toContainText('read-only');
  await expect(row).toContainText(`${secret.slice(0, 13)}…${secret.slice(-4)}`);

  // Shown once: after a reload the secret is nowhere on the page.
  await page.reload();
  await expect(page.getByTestId('new-secret')).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  const read = await request.get(`${API}/apps`, { headers: bearer(secret) });
  expect(read.status()).toBe(200);
  const write = await request.post(`${API}/apps/${DEMO_APP_ID}/keywords`, {
    headers: bearer(secret),
    data: { terms: ['from a read-only key'] },
  });
  expect(write.status()).toBe(403);
  expect((await write.json()).type).toMatch(/\/docs\/problems\/insufficient-scope$/);

  await page.reload();
  await expect(rowOf(page, secret).locator('td').nth(5)).not.toContainText('Never');

  await chooseRowAction(rowOf(page, secret), 'UI read-only', 'Revoke');
  const dialog = page.getByRole('alertdialog', { name: 'Revoke key' });
  await expect(dialog).toContainText('cannot be undone');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(200);

  await chooseRowAction(rowOf(page, secret), 'UI read-only', 'Revoke');
  await page.getByRole('alertdialog', { name: 'Revoke key' }).getByRole('button', { name: 'Revoke key' }).click();
  // Revoked keys leave the default (active) view; the status filter shows them.
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'revoked' })).toBeVisible();
  await expect(rowOf(page, secret)).toHaveCount(0);
  await page.getByTestId('key-status-filter').selectOption('ended');
  await expect(rowOf(page, secret).getByTestId('key-status')).toHaveText('revoked');
  const refused = await request.get(`${API}/apps`, { headers: bearer(secret) });
  expect(refused.status()).toBe(401);
});

test('read-write key adds a keyword; rolling keeps the old secret for the grace period', async ({ page, request }) => {
  await signInAs(page, DEMO.email, DEMO.password);
  const secret = await createKeyInUi(page, 'UI read-write', 'Read-write');
  const added = await request.post(`${API}/apps/${DEMO_APP_ID}/keywords`, {
    headers: bearer(secret),
    data: { terms: ['focus timer'] },
  });
  expect(added.status()).toBe(200);
  const body = await added.json();
  expect([...body.added, ...body.alreadyTracked].map((k: { term: string }) => k.term)).toEqual(['focus timer']);

  await page.getByRole('button', { name: 'I have saved it' }).click();
  const rolled = await rollInUi(page, secret, '1h', 'The old secret works until');
  expect(rolled).not.toBe(secret);
  await expect(rowOf(page, secret).getByTestId('key-status')).toHaveText('rolled');
  await expect(rowOf(page, rolled)).toContainText('read-write');

  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(200);
  expect((await request.get(`${API}/apps`, { headers: bearer(rolled) })).status()).toBe(200);
});

test('roll with grace "now" ends the old secret at once; the new key keeps the expiry', async ({ page, request }) => {
  await signInAs(page, DEMO.email, DEMO.password);
  // Within the year a key may be created for.
  const expiry = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
  const secret = await createKeyInUi(page, 'UI roll now', 'Read-only', expiry);
  await expect(rowOf(page, secret)).toContainText(`${expiry} 23:59 UTC`);
  const rolled = await rollInUi(page, secret, 'now', 'The old secret no longer works');
  await expect(rowOf(page, rolled)).toContainText(`${expiry} 23:59 UTC`);
  await page.getByTestId('key-status-filter').selectOption('all');
  await expect(rowOf(page, secret).getByTestId('key-status')).toHaveText('expired');
  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(401);
  expect((await request.get(`${API}/apps`, { headers: bearer(rolled) })).status()).toBe(200);
});

test('restrictions: a key made for one app with a budget, another restricted to other addresses afterwards', async ({
  page,
  request,
}) => {
  const { email, password } = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  const otherAppId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/habit-loop/id1500000002',
  );
  await signInAs(page, email, password);
  await page.goto('/settings/api');
  const form = await openCreateKeyForm(page);
  await form.getByLabel('Name').fill('one app, 50 credits');
  await form.getByText('Restrictions (optional)').click();
  const fields = page.getByTestId('new-key-restrictions');
  await fields.getByLabel('Only these apps').check();
  const choice = page.getByRole('group', { name: 'Apps the key reaches' }).getByRole('checkbox').first();
  await choice.check();
  const name = (await page.getByRole('group', { name: 'Apps the key reaches' }).locator('label').first().textContent())!
    .replace(/\((App Store|Google Play)\)/, '')
    .trim();
  await fields.getByLabel('Monthly credit budget').fill('50');
  await form.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('secret-value').textContent())!.trim();
  await expect(rowOf(page, secret).getByTestId('key-restrictions')).toContainText(name);
  await expect(rowOf(page, secret).getByTestId('key-restrictions')).toContainText('0 of 50 credits this month');

  // The key lists the chosen app only, and the other is out of its reach.
  const listed = (await (await request.get(`${API}/apps`, { headers: bearer(secret) })).json()) as {
    id: string;
    name: string;
  }[];
  expect(listed.map((app) => app.name)).toEqual([name]);
  const outside = [appId, otherAppId].find((id) => id !== listed[0]!.id)!;
  expect((await request.get(`${API}/apps/${outside}`, { headers: bearer(secret) })).status()).toBe(404);
  await page.reload();
  await expect(rowOf(page, secret).getByTestId('key-restrictions')).toContainText('1 of 50 credits this month');

  // Restricted afterwards to addresses this machine is not at: refused from its next call.
  await chooseRowAction(rowOf(page, secret), 'one app, 50 credits', 'Restrict');
  const dialog = page.getByRole('alertdialog', { name: /Restrict key/ });
  await dialog.getByLabel('Only these addresses').check();
  await dialog.getByLabel(/addresses and CIDR ranges/).fill('not an address');
  await dialog.getByRole('button', { name: 'Save restrictions' }).click();
  await expect(dialog.getByRole('alert')).toContainText('neither an IP address nor a CIDR range');
  await dialog.getByLabel(/addresses and CIDR ranges/).fill('198.51.100.0/24');
  await dialog.getByRole('button', { name: 'Save restrictions' }).click();
  await expect(dialog).toBeHidden();
  await expect(rowOf(page, secret).getByTestId('key-restrictions')).toContainText('From 198.51.100.0/24');
  expect((await request.get(`${API}/apps/${listed[0]!.id}`, { headers: bearer(secret) })).status()).toBe(403);
});

test('expiry: 90 days suggested, a banner for a key expiring within a week, and the owner’s rule that every key expires', async ({
  page,
}) => {
  const { email, password } = await newAccount('pro');
  await signInAs(page, email, password);
  await page.goto('/settings/api');
  const form = await openCreateKeyForm(page);
  const day = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  await expect(form.getByLabel(/Expires/)).toHaveValue(day(90));
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId('expiring-keys-banner')).toHaveCount(0);

  await createKeyInUi(page, 'short-lived', 'Read-only', day(3));
  await page.reload();
  await expect(page.getByTestId('expiring-keys-banner')).toContainText('API key “short-lived” expires within 7 days');
  // On every page of the dashboard, with the way to roll it.
  await page.goto('/apps');
  await page
    .getByTestId('expiring-keys-banner')
    .getByRole('link', { name: /roll it/ })
    .click();
  await expect(page).toHaveURL(/\/settings\/api$/);

  await page.getByTestId('require-key-expiry').check();
  await expect(page.getByText('New keys must now have an expiry')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('require-key-expiry')).toBeChecked();
  await openCreateKeyForm(page);
  await expect(form.getByLabel(/Expires \(required by this account/)).toHaveAttribute('required', '');
});

test('a Free account sees why it cannot create keys, and where to choose a plan', async ({ page }) => {
  const { email, password } = await newAccount('free');
  await signInAs(page, email, password);
  await page.goto('/settings/api');
  await expect(page.getByTestId('plan-label')).toHaveText('Free');
  await expect(page.getByTestId('plan-allowance')).toHaveText('No API access');
  await expect(page.getByTestId('plan-required')).toContainText('paid plans');
  await expect(page.getByTestId('plan-required').getByRole('link', { name: 'choose a plan' })).toHaveAttribute(
    'href',
    '/settings/billing',
  );
  await expect(page.getByRole('button', { name: 'New key' })).toBeDisabled();
});

test('a paid account sees its plan and monthly allowance', async ({ page }) => {
  const { email, password } = await newAccount('business');
  await signInAs(page, email, password);
  await page.goto('/settings/api');
  await expect(page.getByTestId('plan-label')).toHaveText('Business');
  await expect(page.getByTestId('plan-allowance')).toHaveText('10,000');
  await expect(page.getByText('No keys yet.')).toBeVisible();
});

test('wrong credentials are refused with a message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('p[role=alert]')).toHaveText('The email or password is not correct.');
});

test('per-key usage: calls and credits per day, and the request log with its failures, filtered', async ({
  page,
  request,
}) => {
  const { email, password } = await newAccount('pro');
  const appId = await admin(
    'app',
    'add',
    '--email',
    email,
    '--url',
    'https://apps.apple.com/us/app/focus-timer/id1500000001',
  );
  await signInAs(page, email, password);
  const secret = await createKeyInUi(page, 'usage watched', 'Read-only');
  const answers = [
    await request.get(`${API}/apps`, { headers: bearer(secret) }),
    await request.get(`${API}/apps/${appId}`, { headers: bearer(secret) }),
    await request.get(`${API}/apps/00000000-0000-4000-8000-000000000000`, { headers: bearer(secret) }),
    await request.post(`${API}/apps/${appId}/keywords`, {
      headers: bearer(secret),
      data: { terms: ['from a read-only key'] },
    }),
  ];
  expect(answers.map((answer) => answer.status())).toEqual([200, 200, 404, 403]);
  const credits = answers.reduce((sum, answer) => sum + Number(answer.headers()['x-credits-cost']), 0);

  await page.goto('/settings/api');
  await rowOf(page, secret).getByRole('link', { name: 'usage watched' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('usage watched');
  await expect(page.getByTestId('key-usage-total')).toContainText(`4 calls, 2 of them failed, and ${credits} credits.`);
  await expect(page.getByTestId('key-usage-chart')).toHaveAttribute('aria-label', /4 calls/);

  const log = page.getByTestId('request-log-table');
  await expect(page.getByTestId('request-log-count')).toHaveText('4 calls.');
  await expect(log.locator('tbody tr').first()).toContainText('POST /apps/{id}/keywords');
  await expect(log.locator('tbody tr').first()).toContainText('403');
  // Every call's request id, as its answer's X-Request-Id said.
  for (const answer of answers) await expect(log).toContainText(answer.headers()['x-request-id']!);

  const filter = page.getByRole('form', { name: 'Filter the request log' });
  await filter.getByLabel('Status').selectOption('4xx');
  await expect(page.getByTestId('request-log-count')).toHaveText('2 calls.');
  await expect(log.locator('tbody tr[data-status="200"]')).toHaveCount(0);
  await filter.getByLabel('Status').selectOption('');
  await filter.getByLabel('Endpoint').selectOption('GET /apps/{id}');
  await expect(page.getByTestId('request-log-count')).toHaveText('2 calls.');
  await expect(log.locator('tbody tr[data-status="404"]')).toHaveCount(1);

  // A call made while the page is open shows on Refresh.
  expect((await request.get(`${API}/usage`, { headers: bearer(secret) })).status()).toBe(200);
  await filter.getByLabel('Endpoint').selectOption('');
  await expect(page.getByTestId('request-log-count')).toHaveText('5 calls.');

  // The key's page says what the key is, and rolls and revokes it as the keys' table does.
  const facts = page.getByTestId('key-facts');
  await expect(facts).toContainText('read-only');
  await expect(facts).toContainText('All apps; Any address; No budget');
  await expect(page.getByTestId('key-page-status')).toHaveText('active');
  await page.getByRole('button', { name: 'Roll' }).click();
  await page.getByTestId('key-dialog').getByLabel('Old secret').selectOption('now');
  await page.getByTestId('key-dialog-confirm').click();
  const rolled = (await page.getByTestId('secret-value').textContent())!;
  expect(rolled).toMatch(/^svc_live_/);
  expect((await request.get(`${API}/apps`, { headers: bearer(secret) })).status()).toBe(401);
  expect((await request.get(`${API}/apps`, { headers: bearer(rolled) })).status()).toBe(200);
  await expect(page.getByTestId('key-page-status')).not.toHaveText('active');
  await page.getByTestId('new-secret').getByRole('link', { name: 'its page' }).click();
  await expect(page.getByTestId('key-page-status')).toHaveText('active');
  await page.getByRole('button', { name: 'Revoke' }).click();
  await page.getByTestId('key-dialog-confirm').click();
  await expect(page.getByTestId('key-page-status')).toHaveText('revoked');
  await expect(page.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  expect((await request.get(`${API}/apps`, { headers: bearer(rolled) })).status()).toBe(401);

  // Another account's key, or no key at all, is a page that does not exist.
  expect((await page.goto('/settings/api/keys/00000000-0000-4000-8000-000000000000'))?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Key not found' })).toBeVisible();
});
