// A new customer reaches a useful first API call alone, in the browser, with no operator command: sign up, land on
// the trial, add an app by its URL, watch its history load, track keywords, create a key, run the curl the dialog
// shows, and see the checklist tick itself.
import { expect, test } from '@playwright/test';
import { newAccount, signInWithForm, trpc, openCreateKeyForm } from '../helpers';

test('sign up, trial, add an app, its backfill, keywords, a key, the shown curl, the checklist', async ({
  page,
  request,
}) => {
  const email = `self-serve-${Date.now()}@example.test`;
  await page.goto('/sign-up');
  await expect(page.getByTestId('trial-offer')).toContainText('14-day trial of Solo');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password (at least 10 characters)').fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();

  // 2. The trial, and the checklist with nothing done.
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByTestId('account-name')).toContainText('Solo trial until');
  const steps = page.getByTestId('first-steps');
  await expect(steps.getByTestId('step-appAdded')).toHaveAttribute('data-done', 'false');
  await expect(steps.getByTestId('step-keyCreated')).toHaveAttribute('data-done', 'false');
  await expect(steps.getByTestId('step-firstCall')).toHaveAttribute('data-done', 'false');

  // 3. Add an app by its URL; 4. its backfill's progress, then its data.
  await page.getByLabel('Store URL or app name').fill('https://apps.apple.com/gb/app/pocket-breathing/id1487654321');
  await page.getByLabel('Storefront').fill('GB');
  await page.getByRole('button', { name: 'Add app' }).click();
  await expect(page).toHaveURL(/\/apps\/[0-9a-f-]{36}$/);
  const appId = page.url().split('/').at(-1)!;
  await expect(page.getByTestId('app-name')).toHaveText('Pocket Breathing');
  await expect(page.getByTestId('backfill')).toBeVisible();
  await expect(page.getByTestId('backfill')).toBeHidden({ timeout: 90_000 });
  await expect(page.getByTestId('storefronts')).toContainText('data through 20');
  await expect(page.getByTestId('aso-score')).toBeVisible();

  await page.getByLabel('Track keywords in GB (separate them with commas)').fill('breathing, calm, sleep');
  await page.getByRole('button', { name: 'Track', exact: true }).click();
  await expect(page.getByTestId('track-keywords-result')).toHaveText('3 added.');
  await expect(page.getByTestId('keywords-table').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('keywords-table').getByTestId('volume').first()).not.toHaveText('—');

  // 5. A key, with the ready-to-run curl beside its secret.
  await page.goto('/settings/api');
  await expect(page.getByTestId('plan-label')).toHaveText('Solo (trial)');
  await expect(page.getByTestId('plan-allowance')).toHaveText('100');
  const form = await openCreateKeyForm(page);
  await form.getByLabel('Name').fill('first key');
  await form.getByRole('button', { name: 'Create key' }).click();
  const curl = (await page.getByTestId('first-call').innerText()).trim();
  const secret = (await page.getByTestId('secret-value').innerText()).trim();
  const match = /^curl -H "Authorization: Bearer (svc_live_\w+)" (http\S+\/api\/public\/v1\/apps)$/.exec(curl);
  expect(match, curl).not.toBeNull();
  expect(match![1]).toBe(secret);

  // 7. Back home, the first two steps are done; 6. the shown curl, run over HTTP, answers the app; the last step ticks.
  await page.goto('/apps');
  await expect(steps.getByTestId('step-appAdded')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByTestId('step-keyCreated')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByTestId('step-firstCall')).toHaveAttribute('data-done', 'false');
  const answer = await request.get(match![2]!, { headers: { Authorization: `Bearer ${match![1]}` } });
  expect(answer.status()).toBe(200);
  expect(answer.headers()['x-credits-limit']).toBe('100');
  const apps = await answer.json();
  expect(apps).toEqual([
    expect.objectContaining({
      id: appId,
      name: 'Pocket Breathing',
      primaryCountry: 'GB',
      storefronts: ['GB'],
      backfill: expect.objectContaining({ status: 'completed' }),
    }),
  ]);
  await expect(steps.getByTestId('step-firstCall')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByRole('heading')).toHaveText('You are set up');
});

test('without Stripe the plan page shows the tiers and who sets plans, never the operator’s command', async ({
  page,
}) => {
  const { email, password } = await newAccount('free');
  await signInWithForm(page, email, password);
  await page.goto('/settings/billing');
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  // The e2e server names no SALES_CONTACT: the page says who to ask, and offers no link (stripe-billing.integration
  // checks the prepared mail and the page).
  await expect(page.getByTestId('operator-billing')).toHaveText(
    'No payment is taken here: plans on this deployment are set by the team that runs it. To change plan, ask them.',
  );
  await expect(page.getByText('npm run admin')).toHaveCount(0);
  const solo = page.getByTestId('tiers').locator('tr[data-tier="solo"]');
  await expect(solo).toContainText('$29.00');
  await expect(solo).toContainText('1,500');
  await expect(solo).toContainText('200');
  await expect(page.getByRole('button', { name: /^Choose / })).toHaveCount(0);
});

test('removing an app asks first, says what is lost, and removes it', async ({ page }) => {
  const { email, password, session } = await newAccount('pro');
  const app = await trpc<{ id: string }>(session, 'apps.create', {
    storeUrl: 'https://play.google.com/store/apps/details?id=com.example.removable',
  });
  await signInWithForm(page, email, password);
  await page.goto(`/apps/${app.id}`);
  await page.getByTestId('remove-app').click();
  await expect(page.getByRole('alertdialog')).toContainText('rank and rating history');
  await page.getByTestId('remove-app-confirm').click();
  await expect(page).toHaveURL(/\/apps$/);
  await expect(page.getByTestId('apps-empty')).toContainText('No apps yet');
});
