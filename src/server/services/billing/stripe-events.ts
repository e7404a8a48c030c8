// Stripe's webhook events (POST /api/billing/stripe-webhook): the only way a subscription changes an account's tier.
// Each event is verified with the SDK's own constructEvent (signature and timestamp tolerance), applied once by its
// id (stripe_events, in the transaction of the change), and the account's tier is set from the subscription as Stripe
// has it now: the subscription is read back from Stripe rather than taken from the event, so events that arrive out
// of order or twice leave the account on the subscription's latest state.
import type Stripe from 'stripe';
import { db } from '@/server/db';
import type { PlanTier } from '@/generated/prisma/enums';
import { config } from '@/server/core/config';
import { logError, logInfo } from '@/server/core/log';
import { changePlan } from '@/server/services/accounts/plan-changes';
import { LIVE_SUBSCRIPTION_STATUSES } from './billing';
import { stripeClient, tierOfPrice } from './stripe-client';

const HANDLED_EVENT_TYPES = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;

export interface WebhookAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** Verifies, then applies an event once. 400 for a bad signature (Stripe shows it and retries); 200 once handled or ignored. */
export async function handleStripeWebhook(
  rawBody: string,
  signature: string | null,
  now = new Date(),
): Promise<WebhookAnswer> {
  const stripe = await stripeClient();
  const secret = config().STRIPE_WEBHOOK_SECRET;
  if (!stripe || !secret)
    return { status: 404, body: { error: 'Stripe billing is not configured on this deployment.' } };
  if (!signature) return { status: 400, body: { error: 'Missing Stripe-Signature header.' } };
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    return { status: 400, body: { error: `Signature verification failed: ${(error as Error).message}` } };
  }
  if (!(HANDLED_EVENT_TYPES as readonly string[]).includes(event.type))
    return { status: 200, body: { received: true, ignored: event.type } };
  if (await db.stripeEvent.findUnique({ where: { id: event.id }, select: { id: true } }))
    return { status: 200, body: { received: true, duplicate: true } };

  try {
    const target = await subscriptionOf(stripe, event);
    if (!target) {
      await db.stripeEvent.createMany({ data: [{ id: event.id, type: event.type }], skipDuplicates: true });
      return { status: 200, body: { received: true, ignored: 'no subscription of an account of ours' } };
    }
    const outcome = await applySubscription(event, target, now);
    return { status: 200, body: { received: true, ...outcome } };
  } catch (error) {
    // Stripe or our database did not answer: nothing was applied, and Stripe sends the event again later.
    logError('a Stripe event could not be applied; Stripe will retry it', error, {
      eventId: event.id,
      type: event.type,
    });
    return { status: 503, body: { error: 'The event could not be applied now; retry later.' } };
  }
}

interface Target {
  accountId: string;
  customerId: string;
  subscription: Stripe.Subscription;
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  return typeof value === 'string' ? value : (value?.id ?? null);
}

/** The account and the subscription, as Stripe has it now, that the event is about; null when it is none of ours. */
async function subscriptionOf(stripe: Stripe, event: Stripe.Event): Promise<Target | null> {
  let subscriptionId: string | null;
  let customerId: string | null;
  let accountHint: string | null;
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    if (session.mode !== 'subscription') return null;
    subscriptionId = idOf(session.subscription);
    customerId = idOf(session.customer);
    accountHint = session.client_reference_id ?? session.metadata?.accountId ?? null;
  } else {
    const subscription = event.data.object as Stripe.Subscription;
    subscriptionId = subscription.id;
    customerId = idOf(subscription.customer);
    accountHint = subscription.metadata?.accountId ?? null;
  }
  if (!subscriptionId || !customerId) return null;
  const byCustomer = await db.account.findUnique({ where: { stripeCustomerId: customerId }, select: { id: true } });
  const accountId =
    byCustomer?.id ??
    (accountHint && /^[0-9a-f-]{36}$/i.test(accountHint)
      ? (await db.account.findUnique({ where: { id: accountHint }, select: { id: true } }))?.id
      : undefined);
  if (!accountId) return null;
  // Read back, not taken from the event (see the file's comment). Stripe's 5xx or a timeout throws: the answer is
  // 503 and Stripe sends the event again later.
  const subscription = await stripe.subscriptions.retrieve(subscriptionId);
  return { accountId, customerId, subscription };
}

async function applySubscription(
  event: Stripe.Event,
  { accountId, customerId, subscription }: Target,
  now: Date,
): Promise<Record<string, unknown>> {
  const priceId = subscription.items.data[0]?.price.id;
  const paidTier = priceId ? tierOfPrice(priceId) : undefined;
  const live = LIVE_SUBSCRIPTION_STATUSES.has(subscription.status);
  if (live && !paidTier)
    logError('a Stripe subscription has a price this deployment does not sell; the plan is left as it is', null, {
      priceId,
      subscriptionId: subscription.id,
    });

  return db.$transaction(async (tx) => {
    // Applied once: a second delivery of the event (or one racing this) finds its id and changes nothing.
    const first = await tx.stripeEvent.createMany({
      data: [{ id: event.id, type: event.type, accountId }],
      skipDuplicates: true,
    });
    if (!first.count) return { duplicate: true };
    const account = await tx.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { stripeSubscriptionId: true },
    });
    // The end of a subscription the account has since replaced does not take its plan away.
    // Its first payment is still being made (3-D Secure, a bank debit): the account stays as it is, trial included.
    if (subscription.status === 'incomplete') return { ignored: 'the first payment is pending' };
    if (!live && account.stripeSubscriptionId && account.stripeSubscriptionId !== subscription.id)
      return { ignored: 'a replaced subscription' };
    if (live && !paidTier) return { ignored: 'unknown price' };
    const to: PlanTier = live ? paidTier! : 'free';
    const from = await changePlan(tx, {
      accountId,
      to,
      reason: 'stripe',
      stripeEventId: event.id,
      now,
      billing: {
        stripeCustomerId: customerId,
        stripeSubscriptionId: subscription.id,
        subscriptionStatus: subscription.status,
      },
    });
    logInfo('stripe: plan applied', {
      accountId,
      eventId: event.id,
      type: event.type,
      from,
      to,
      status: subscription.status,
    });
    return { plan: to };
  });
}
