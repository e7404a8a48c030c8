// Stripe Billing against a local stand-in of Stripe's HTTP API (the SDK pointed at it with STRIPE_API_URL) and
// events signed with the SDK's test header helper: checkout, portal, upgrade, downgrade, cancel, a replayed event and
// a forged signature.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { startStripeStandIn, type StripeStandIn } from '../../../../test/stripe-stand-in';
import { makeAccount } from '../../../../test/factories';
import { billingOverview, openCustomerPortal, startCheckout } from './billing';
import { handleStripeWebhook } from './stripe-events';
import { resetStripeClient } from './stripe-client';

const SECRET = 'whsec_test_standin_secret';
const ORIGIN = 'https://dashboard.example.test';
let stripe: StripeStandIn;

function configureStripe(url: string) {
  vi.stubEnv('STRIPE_SECRET_KEY', 'sk_test_standin');
  vi.stubEnv('STRIPE_WEBHOOK_SECRET', SECRET);
  vi.stubEnv('STRIPE_PRICE_SOLO', 'price_solo');
  vi.stubEnv('STRIPE_PRICE_PRO', 'price_pro');
  vi.stubEnv('STRIPE_API_URL', url);
  resetStripeClient();
}

beforeAll(async () => {
  stripe = await startStripeStandIn();
  stripe.prices.set('price_solo', { unit_amount: 2900, currency: 'usd' });
  stripe.prices.set('price_pro', { unit_amount: 9900, currency: 'usd' });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  resetStripeClient();
  await stripe.close();
});
beforeEach(() => configureStripe(stripe.url));

async function deliver(type: string, object: Record<string, unknown>, id?: string) {
  const event = stripe.signedEvent(type, object, SECRET, id);
  return { ...(await handleStripeWebhook(event.body, event.signature)), id: event.id };
}

async function accountOf(accountId: string) {
  return db.account.findUniqueOrThrow({ where: { id: accountId } });
}

describe('upgrading through Checkout', () => {
  it('opens a Checkout Session for the tier’s price, then applies the completed checkout once', async () => {
    const owner = await makeAccount('free');
    const { url, kind } = await startCheckout(owner, 'solo', ORIGIN);
    expect(kind).toBe('checkout');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/cs_test_/);
    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: 'Bearer sk_test_standin',
    });
    expect(sent.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_solo',
      'line_items[0][quantity]': '1',
      client_reference_id: owner.accountId,
      customer_email: owner.email,
      'subscription_data[metadata][accountId]': owner.accountId,
      success_url: `${ORIGIN}/settings/billing?checkout=success`,
    });

    const customer = `cus_${owner.accountId.slice(0, 8)}`;
    stripe.subscriptions.set('sub_upgrade', {
      customer,
      status: 'active',
      price: 'price_solo',
      metadata: { accountId: owner.accountId },
    });
    const answer = await deliver('checkout.session.completed', {
      id: 'cs_1',
      object: 'checkout.session',
      mode: 'subscription',
      client_reference_id: owner.accountId,
      customer,
      subscription: 'sub_upgrade',
    });
    expect(answer).toMatchObject({ status: 200, body: { received: true, plan: 'solo' } });
    expect(await accountOf(owner.accountId)).toMatchObject({
      plan: 'solo',
      stripeCustomerId: customer,
      stripeSubscriptionId: 'sub_upgrade',
      subscriptionStatus: 'active',
      trialEndsAt: null,
    });
    const history = await db.planChange.findMany({ where: { accountId: owner.accountId }, orderBy: { id: 'asc' } });
    expect(history.at(-1)).toMatchObject({
      fromPlan: 'free',
      toPlan: 'solo',
      reason: 'stripe',
      stripeEventId: answer.id,
    });
    const events = await db.domainEvent.findMany({ where: { accountId: owner.accountId, type: 'plan.changed' } });
    expect(events.map((event) => event.data)).toEqual([
      expect.objectContaining({ from: 'free', to: 'solo', reason: 'stripe' }),
    ]);

    // With a live subscription, choosing another tier opens the portal, where Stripe changes it.
    expect(await startCheckout(owner, 'pro', ORIGIN)).toMatchObject({
      kind: 'portal',
      url: expect.stringMatching(/\/portal\/bps_/),
    });
    expect(stripe.requests.at(-1)).toMatchObject({
      path: '/v1/billing_portal/sessions',
      form: { customer, return_url: `${ORIGIN}/settings/billing` },
    });
    expect(await openCustomerPortal(owner.accountId, ORIGIN)).toMatchObject({
      url: expect.stringMatching(/\/portal\//),
    });
  });
});

describe('subscription events', () => {
  async function subscribed(tier: 'solo' | 'pro') {
    const owner = await makeAccount('free');
    const customer = `cus_${owner.accountId.replaceAll('-', '').slice(0, 12)}`;
    const subscription = `sub_${owner.accountId.replaceAll('-', '').slice(0, 12)}`;
    stripe.subscriptions.set(subscription, {
      customer,
      status: 'active',
      price: `price_${tier}`,
      metadata: { accountId: owner.accountId },
    });
    await deliver('customer.subscription.created', {
      id: subscription,
      object: 'subscription',
      customer,
      metadata: { accountId: owner.accountId },
    });
    return { ...owner, customer, subscription };
  }

  it('downgrades when the subscription moves to a cheaper price, the credits used staying used', async () => {
    const owner = await subscribed('pro');
    expect((await accountOf(owner.accountId)).plan).toBe('pro');
    stripe.subscriptions.set(owner.subscription, {
      customer: owner.customer,
      status: 'active',
      price: 'price_solo',
      metadata: {},
    });
    const answer = await deliver('customer.subscription.updated', {
      id: owner.subscription,
      object: 'subscription',
      customer: owner.customer,
    });
    expect(answer.body).toMatchObject({ plan: 'solo' });
    expect((await accountOf(owner.accountId)).plan).toBe('solo');
  });

  it('moves the account to Free when the subscription is cancelled', async () => {
    const owner = await subscribed('solo');
    stripe.subscriptions.set(owner.subscription, {
      customer: owner.customer,
      status: 'canceled',
      price: 'price_solo',
      metadata: {},
    });
    const answer = await deliver('customer.subscription.deleted', {
      id: owner.subscription,
      object: 'subscription',
      customer: owner.customer,
    });
    expect(answer.body).toMatchObject({ plan: 'free' });
    expect(await accountOf(owner.accountId)).toMatchObject({ plan: 'free', subscriptionStatus: 'canceled' });
  });

  it('leaves the account as it is while the first payment is pending', async () => {
    const owner = await makeAccount('free');
    await db.account.update({
      where: { id: owner.accountId },
      data: { plan: 'solo', trialEndsAt: new Date(Date.now() + 86_400_000), trialCredits: 100 },
    });
    stripe.subscriptions.set('sub_pending', {
      customer: 'cus_pending',
      status: 'incomplete',
      price: 'price_pro',
      metadata: { accountId: owner.accountId },
    });
    const answer = await deliver('customer.subscription.created', {
      id: 'sub_pending',
      object: 'subscription',
      customer: 'cus_pending',
      metadata: { accountId: owner.accountId },
    });
    expect(answer.body).toMatchObject({ ignored: 'the first payment is pending' });
    expect(await accountOf(owner.accountId)).toMatchObject({ plan: 'solo', trialCredits: 100 });
  });

  it('applies an event Stripe sends twice only once', async () => {
    const owner = await subscribed('solo');
    stripe.subscriptions.set(owner.subscription, {
      customer: owner.customer,
      status: 'active',
      price: 'price_pro',
      metadata: {},
    });
    const event = stripe.signedEvent(
      'customer.subscription.updated',
      { id: owner.subscription, object: 'subscription', customer: owner.customer },
      SECRET,
    );
    const [first, second] = await Promise.all([
      handleStripeWebhook(event.body, event.signature),
      handleStripeWebhook(event.body, event.signature),
    ]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await handleStripeWebhook(event.body, event.signature);
    expect(third.body).toMatchObject({ duplicate: true });
    expect(await db.planChange.count({ where: { accountId: owner.accountId, stripeEventId: event.id } })).toBe(1);
    expect(await db.stripeEvent.count({ where: { id: event.id } })).toBe(1);
  });

  it('refuses an event whose signature is forged, and changes nothing', async () => {
    const owner = await makeAccount('free');
    const customer = 'cus_forged';
    stripe.subscriptions.set('sub_forged', {
      customer,
      status: 'active',
      price: 'price_pro',
      metadata: { accountId: owner.accountId },
    });
    const forged = stripe.signedEvent(
      'customer.subscription.created',
      { id: 'sub_forged', object: 'subscription', customer, metadata: { accountId: owner.accountId } },
      'whsec_someone_else',
    );
    const answer = await handleStripeWebhook(forged.body, forged.signature);
    expect(answer.status).toBe(400);
    expect(String(answer.body.error)).toMatch(/signature/i);
    // A genuine header over another body is refused too.
    const genuine = stripe.signedEvent('ping', {}, SECRET);
    expect((await handleStripeWebhook(forged.body, genuine.signature)).status).toBe(400);
    expect((await handleStripeWebhook(forged.body, null)).status).toBe(400);
    expect((await accountOf(owner.accountId)).plan).toBe('free');
    expect(await db.stripeEvent.count({ where: { id: forged.id } })).toBe(0);
  });
});

describe('the plan page', () => {
  it('shows Stripe’s prices and offers checkout for the tiers that have one', async () => {
    const owner = await makeAccount('free');
    const overview = await billingOverview(owner);
    expect(overview.billing).toBe('stripe');
    expect(overview.contact).toBeNull();
    const byTier = Object.fromEntries(overview.tiers.map((tier) => [tier.tier, tier]));
    expect(byTier.solo).toMatchObject({
      price: { amount: 29, currency: 'USD' },
      checkout: true,
      trackedApps: 3,
      monthlyCredits: 1500,
    });
    expect(byTier.business).toMatchObject({ checkout: false });
    expect(byTier.enterprise).toMatchObject({ price: null, checkout: false });
  });

  it('without Stripe, says the operator manages plans and where to ask for one, never the operator’s command', async () => {
    vi.stubEnv('STRIPE_SECRET_KEY', '');
    resetStripeClient();
    const owner = await makeAccount('free');
    vi.stubEnv('SALES_CONTACT', 'sales@aso.example');
    expect((await billingOverview(owner)).contact).toEqual({
      kind: 'email',
      address: 'sales@aso.example',
      accountEmail: owner.email,
    });
    vi.stubEnv('SALES_CONTACT', 'https://aso.example/pricing');
    expect((await billingOverview(owner)).contact).toEqual({ kind: 'page', url: 'https://aso.example/pricing' });
    vi.stubEnv('SALES_CONTACT', '');
    const overview = await billingOverview(owner);
    expect(overview.billing).toBe('operator');
    expect(overview.contact).toBeNull();
    expect(JSON.stringify(overview)).not.toContain('npm run admin');
    expect(overview.tiers.every((tier) => !tier.checkout)).toBe(true);
    await expect(startCheckout(owner, 'solo', ORIGIN)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    expect(await handleStripeWebhook('{}', 't=1,v1=00')).toMatchObject({ status: 404 });
  });
});
