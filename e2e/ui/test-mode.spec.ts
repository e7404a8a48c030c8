// Test mode in the dashboard, in Chromium, on a Free account (no live API access): the switch, its banner, a test key
// made and used on the sandbox's sample apps, the settings pages saying they are test mode's (and passing axe), an
// error asked for and seen in the key's request log, the reset, and live mode untouched afterwards.
import { expect, test } from '@playwright/test';
import { seriousViolations } from '../axe';
import { API, bearer, newAccount, signInAs, openCreateKeyForm } from '../helpers';

test('a Free account switches to test mode, makes a test key, calls the sandbox and asks for an error, and live mode stays as it was', async ({
  page,
  request,
}) => {
  const { email, password } = await newAccount('free');
  await signInAs(page, email, password);
  await page.goto('/settings/api');
  await expect(page.getByTestId('plan-allowance')).toHaveText('No API access');
  await expect(page.getByTestId('test-mode-banner')).toHaveCount(0);

  await page.getByTestId('test-mode-switch').check();
  await expect(page.getByTestId('test-mode-banner')).toBeVisible();
  await expect(page.getByTestId('plan-label')).toHaveText('Test mode');
  await expect(page.getByTestId('plan-allowance')).toHaveText('25,000');
  expect(await seriousViolations(page)).toEqual([]);

  const form = await openCreateKeyForm(page);
  await form.getByLabel('Name').fill('CI in test mode');
  await form.getByLabel('Scope').selectOption({ label: 'Read-write' });
  await form.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('secret-value').textContent())!.trim();
  expect(secret).toMatch(/^svc_test_[0-9A-Za-z]{38}$/);

  // The other settings pages say they are test mode's, and pass axe as the live ones do (e2e/ui/every-screen.spec.ts).
  for (const [path, notice] of [
    ['/settings/webhooks', 'webhooks-test-mode'],
    ['/settings/security', 'security-log-test-mode'],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId(notice), path).toBeVisible();
    await expect(page.getByTestId('test-mode-banner'), path).toBeVisible();
    expect(await seriousViolations(page), path).toEqual([]);
  }

  // The sandbox's sample apps, in test mode, on the test allowance.
  const apps = await request.get(`${API}/apps`, { headers: bearer(secret) });
  expect(apps.status()).toBe(200);
  expect(apps.headers()['x-test-mode']).toBe('true');
  expect(apps.headers()['x-credits-limit']).toBe('25000');
  const sample = (await apps.json()) as { id: string; name: string }[];
  expect(sample.map((app) => app.name)).toContain('Breathe: Sleep & Meditation');
  const limited = await request.get(`${API}/apps/${sample[0]!.id}`, {
    headers: { ...bearer(secret), 'X-Test-Trigger': 'rate-limited' },
  });
  expect(limited.status()).toBe(429);
  expect(limited.headers()['retry-after']).toBe('1');

  // The test key's page, as a live key's (#24): its calls in its request log, the error asked for among them.
  await page.goto('/settings/api');
  await page.getByRole('link', { name: 'CI in test mode' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('CI in test mode');
  await expect(page.getByTestId('test-mode-banner')).toBeVisible();
  const log = page.getByTestId('request-log-table');
  for (const answer of [apps, limited]) await expect(log).toContainText(answer.headers()['x-request-id']!);
  await expect(log.locator('tbody tr[data-status="429"]')).toHaveCount(1);

  // The apps page shows the sandbox too; an app added there goes with a reset.
  await page.goto('/apps');
  await expect(page.getByRole('link', { name: 'Breathe: Sleep & Meditation' }).first()).toBeVisible();
  const added = await request.post(`${API}/apps`, {
    headers: bearer(secret),
    data: { storeUrl: 'https://apps.apple.com/us/app/pocket-breathing/id1487654321' },
  });
  expect(added.status()).toBe(200);
  const addedId = ((await added.json()) as { id: string }).id;
  await page.goto('/settings/api');
  await page.getByTestId('reset-test-data').click();
  await page.getByTestId('reset-test-data-confirm').click();
  // A reset deletes the sandbox's year of history before it adds the sample apps again: bounds for a busy machine.
  await expect(page.getByText('Test data reset: the sample apps are back.')).toBeVisible({ timeout: 90_000 });
  expect((await request.get(`${API}/apps/${addedId}`, { headers: bearer(secret) })).status()).toBe(404);

  // Back to live mode: no banner, no test key listed, and still no live API access for the Free account.
  await page.getByTestId('test-mode-switch').uncheck();
  await expect(page.getByTestId('test-mode-banner')).toHaveCount(0);
  await expect(page.getByTestId('plan-allowance')).toHaveText('No API access');
  await expect(page.getByText('CI in test mode')).toHaveCount(0);
});
