// Stripe Billing end to end: `npm start` on a data directory of its own, its Stripe SDK pointed at a local stand-in of
// Stripe's HTTP API (STRIPE_API_URL). The owner chooses a plan in the browser and lands on the (stand-in) Checkout;
// the signed event Stripe would send then moves the account, a replay changes nothing, a forged signature is refused,
// and a subscribed owner is sent to the Customer Portal.
import { spawn, type ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { startStripeStandIn, type StripeStandIn } from '../../test/stripe-stand-in';

const PORT = 3214;
const ORIGIN = `http://127.0.0.1:${PORT}`;
const WEBHOOK_SECRET = 'whsec_e2e_stand_in_secret';
let launcher: ChildProcess | undefined;
let stripe: StripeStandIn | undefined;

test.afterAll(async () => {
  // The whole process group: a launcher killed alone would leave its app server holding the port.
  if (launcher?.exitCode === null) process.kill(-launcher.pid!, 'SIGKILL');
  await stripe?.close();
});

test('choose a plan through Checkout; the signed event moves the account once; a forged one is refused; the portal manages it', async ({
  page,
  request,
}) => {
  test.setTimeout(480_000);
  stripe = await startStripeStandIn();
  stripe.prices.set('price_e2e_solo', { unit_amount: 2900, currency: 'usd' });
  stripe.prices.set('price_e2e_pro', { unit_amount: 9900, currency: 'usd' });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: '.data/e2e-stripe',
    PORT: String(PORT),
    SEED_DEMO: 'false',
    LOG_REQUESTS: 'false',
    NEXTAUTH_URL: ORIGIN,
    STRIPE_SECRET_KEY: 'sk_test_e2e_stand_in',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_PRICE_SOLO: 'price_e2e_solo',
    STRIPE_PRICE_PRO: 'price_e2e_pro',
    STRIPE_API_URL: stripe.url,
  };
  delete env.DATABASE_URL;
  delete env.EMBEDDED_PG_PORT;
  let output = '';
  launcher = spawn('sh', ['-c', `rm -rf .data/e2e-stripe && exec ${process.execPath} dist/start.mjs`], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect.poll(() => output, { timeout: 150_000 }).toContain('App ready at');

  // A new owner, on the trial.
  await page.goto(`${ORIGIN}/sign-up`);
  await page.getByLabel('Email').fill(`stripe-${Date.now()}@example.test`);
  await page.getByLabel('Password (at least 10 characters)').fill('a-good-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/apps$/);
  await page.goto(`${ORIGIN}/settings/billing`);
  await expect(page.getByTestId('billing-plan')).toHaveText('Solo (trial)');
  await expect(page.getByTestId('trial-notice')).toContainText('100 credits a month');
  await expect(page.getByTestId('tiers').locator('tr[data-tier="pro"]')).toContainText('$99.00');
  await expect(page.getByTestId('operator-billing')).toHaveCount(0);

  // Choosing Pro goes to Checkout, for Pro's price and this account.
  await page.getByTestId('choose-pro').click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.url}/checkout/cs_test_`));
  const checkout = stripe.requests.findLast((sent) => sent.path === '/v1/checkout/sessions')!;
  expect(checkout.form).toMatchObject({
    mode: 'subscription',
    'line_items[0][price]': 'price_e2e_pro',
    success_url: `${ORIGIN}/settings/billing?checkout=success`,
  });
  const accountId = checkout.form.client_reference_id!;

  // Stripe's event, signed, to the app's webhook route.
  stripe.subscriptions.set('sub_e2e', {
    customer: 'cus_e2e',
    status: 'active',
    price: 'price_e2e_pro',
    metadata: { accountId },
  });
  const completed = stripe.signedEvent(
    'checkout.session.completed',
    {
      id: 'cs_e2e',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: accountId,
      customer: 'cus_e2e',
      subscription: 'sub_e2e',
    },
    WEBHOOK_SECRET,
  );
  const deliver = (body: string, signature: string) =>
    request.post(`${ORIGIN}/api/billing/stripe-webhook`, {
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      data: body,
    });
  const applied = await deliver(completed.body, completed.signature);
  expect([applied.status(), await applied.json()]).toEqual([200, { received: true, plan: 'pro' }]);
  const replayed = await deliver(completed.body, completed.signature);
  expect([replayed.status(), await replayed.json()]).toEqual([200, { received: true, duplicate: true }]);
  const forged = stripe.signedEvent(
    'customer.subscription.deleted',
    { id: 'sub_e2e', object: 'subscription', customer: 'cus_e2e' },
    'whsec_not_ours',
  );
  expect((await deliver(forged.body, forged.signature)).status()).toBe(400);

  await page.goto(`${ORIGIN}/settings/billing?checkout=success`);
  await expect(page.getByTestId('billing-plan')).toHaveText('Pro');
  await expect(page.getByTestId('billing-usage')).toContainText('/ 5,000');
  await expect(page.getByTestId('trial-notice')).toHaveCount(0);
  await page.getByTestId('manage-subscription').click();
  await expect(page).toHaveURL(new RegExp(`^${stripe.url}/portal/bps_`));
  expect(stripe.requests.findLast((sent) => sent.path === '/v1/billing_portal/sessions')!.form).toMatchObject({
    customer: 'cus_e2e',
    return_url: `${ORIGIN}/settings/billing`,
  });

  // Cancelled in the portal: Stripe's event moves the account to Free.
  stripe.subscriptions.set('sub_e2e', {
    customer: 'cus_e2e',
    status: 'canceled',
    price: 'price_e2e_pro',
    metadata: { accountId },
  });
  const deleted = stripe.signedEvent(
    'customer.subscription.deleted',
    { id: 'sub_e2e', object: 'subscription', customer: 'cus_e2e' },
    WEBHOOK_SECRET,
  );
  expect(await (await deliver(deleted.body, deleted.signature)).json()).toEqual({ received: true, plan: 'free' });
  await page.goto(`${ORIGIN}/settings/billing`);
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  await expect(page.getByTestId('plan-history').locator('tbody tr')).toHaveText([
    /Pro → Free\s*Subscription \(Stripe\)/,
    /Solo → Pro\s*Subscription \(Stripe\)/,
    /Solo\s*Trial started/,
  ]);
});
