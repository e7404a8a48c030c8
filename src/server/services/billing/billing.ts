// Plans & billing as the account owner meets them: the tiers with their allowance, rate limit, caps and price, the
// account's plan, usage and trial; upgrading through a Stripe Checkout Session and changing or cancelling through
// Stripe's Customer Portal. The plan itself changes only when Stripe's signed events say so (./stripe-events.ts).
import type Stripe from 'stripe';
import type { PlanChangeReason } from '@/server/services/accounts/plan-changes';
import { db } from '@/server/db';
import { config } from '@/server/core/config';
import { logError } from '@/server/core/log';
import { AppError } from '@/server/errors/app-error';
import {
  accessOf,
  accountTier,
  type AccountTier,
  PLAN_TIERS,
  PLANS,
  type SelfServeTier,
  type Trial,
} from '@/server/services/accounts/plans';
import { creditsUsed, periodOf } from '@/server/services/metering/credits';
import { REQUESTS_PER_MINUTE } from '@/server/services/limits/request-rates';
import { configuredPrices, stripeClient } from './stripe-client';

/** Subscription statuses under which the subscription's tier is in force (Stripe retries a failed payment meanwhile). */
export const LIVE_SUBSCRIPTION_STATUSES = new Set(['active', 'trialing', 'past_due']);

interface TierOffer {
  tier: (typeof PLAN_TIERS)[number];
  label: string;
  monthlyCredits: number | null;
  requestsPerMinute: number;
  trackedApps: number | null;
  trackedKeywords: number | null;
  storefrontsPerApp: number | null;
  competitorsPerApp: number | null;
  exportRows: number | null;
  /** Per month, in the currency's major unit; null: on request (Enterprise), or not sold by this deployment. */
  price: { amount: number; currency: string } | null;
  /** Whether the owner can subscribe to it from the plan page. */
  checkout: boolean;
}

export interface BillingOverview {
  plan: (typeof PLAN_TIERS)[number];
  trial: (Trial & { tier: AccountTier }) | null;
  creditLimit: number | null;
  creditsUsed: number;
  periodEnd: Date;
  /** 'stripe': checkout and the customer portal; 'operator': plans are set with the operator CLI. */
  billing: 'stripe' | 'operator';
  /**
   * Where a customer asks for another plan when billing is 'operator' (SALES_CONTACT): a mail, which names the account
   * by its owner's address, or a page. Null with Stripe, or when the deployment names none.
   */
  contact: SalesContact | null;
  subscription: { status: string } | null;
  /** Whether the owner can open Stripe's Customer Portal (the account is a Stripe customer). */
  portal: boolean;
  tiers: TierOffer[];
  /** The account's latest changes of tier, newest first. */
  history: { from: AccountTier | null; to: AccountTier; reason: PlanChangeReason; changedAt: Date }[];
}

/** Changes of tier the plan page lists. */
const HISTORY_SHOWN = 10;

const PRICE_CACHE_MS = 10 * 60_000;
let priceCache: { at: number; prices: Map<string, { amount: number; currency: string }> } | undefined;

/** Stripe's own amounts for the configured prices, so that the page never shows a price other than the one charged. */
async function stripePrices(stripe: Stripe): Promise<Map<string, { amount: number; currency: string }>> {
  if (priceCache && Date.now() - priceCache.at < PRICE_CACHE_MS) return priceCache.prices;
  const prices = new Map<string, { amount: number; currency: string }>();
  await Promise.all(
    Object.values(configuredPrices()).map(async (id) => {
      try {
        const price = await stripe.prices.retrieve(id);
        if (price.unit_amount !== null)
          prices.set(id, { amount: price.unit_amount / 100, currency: price.currency.toUpperCase() });
      } catch (error) {
        logError('reading a Stripe price failed', error, { priceId: id });
      }
    }),
  );
  priceCache = { at: Date.now(), prices };
  return prices;
}

type SalesContact = { kind: 'email'; address: string; accountEmail: string } | { kind: 'page'; url: string };

/** SALES_CONTACT, as the plan page offers it to this account's owner. */
async function salesContact(owner: BillingOwner): Promise<SalesContact | null> {
  const contact = config().SALES_CONTACT;
  if (!contact) return null;
  if (contact.startsWith('https://')) return { kind: 'page', url: contact };
  return { kind: 'email', address: contact, accountEmail: await ownerEmail(owner) };
}

export interface BillingOwner {
  accountId: string;
  userId: string;
}

async function ownerEmail(owner: BillingOwner): Promise<string> {
  const member = await db.membership.findUnique({
    where: { accountId_userId: { accountId: owner.accountId, userId: owner.userId } },
    select: { user: { select: { email: true } } },
  });
  if (!member) throw new AppError('NOT_FOUND', 'The user is not a member of this account.');
  return member.user.email;
}

export async function billingOverview(owner: BillingOwner, now = new Date()): Promise<BillingOverview> {
  const { accountId } = owner;
  const stripe = await stripeClient();
  const [account, used, changes, prices, contact] = await Promise.all([
    db.account.findUnique({ where: { id: accountId } }),
    creditsUsed(accountId, now),
    db.planChange.findMany({
      where: { accountId },
      orderBy: [{ changedAt: 'desc' }, { id: 'desc' }],
      take: HISTORY_SHOWN,
    }),
    stripe ? stripePrices(stripe) : new Map<string, { amount: number; currency: string }>(),
    // The operator's command is for the operator (docs/billing.md), never shown to a customer.
    stripe ? null : salesContact(owner),
  ]);
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  const access = accessOf(account, now);
  const offered = configuredPrices();
  const tiers = PLAN_TIERS.map((tier): TierOffer => {
    const plan = PLANS[tier];
    const priceId = offered[tier as SelfServeTier];
    const stripePrice = priceId ? prices.get(priceId) : undefined;
    return {
      tier,
      label: plan.label,
      monthlyCredits: plan.monthlyCredits,
      requestsPerMinute: REQUESTS_PER_MINUTE[tier],
      trackedApps: plan.caps.trackedApps,
      trackedKeywords: plan.caps.trackedKeywords,
      storefrontsPerApp: plan.caps.storefrontsPerApp,
      competitorsPerApp: plan.caps.competitorsPerApp,
      exportRows: plan.caps.exportRows,
      price: stripe
        ? (stripePrice ?? (tier === 'free' ? { amount: 0, currency: 'USD' } : null))
        : plan.listPriceUsd === null
          ? null
          : { amount: plan.listPriceUsd, currency: 'USD' },
      checkout: Boolean(stripe && priceId && stripePrice),
    };
  });
  return {
    plan: accountTier(access.plan),
    trial: access.trial && { ...access.trial, tier: accountTier(access.trial.tier) },
    creditLimit: access.creditLimit,
    creditsUsed: used,
    periodEnd: periodOf(now).end,
    billing: stripe ? 'stripe' : 'operator',
    contact,
    subscription: account.subscriptionStatus ? { status: account.subscriptionStatus } : null,
    portal: Boolean(stripe && account.stripeCustomerId),
    tiers,
    history: changes.map((change) => ({
      from: change.fromPlan && accountTier(change.fromPlan),
      to: accountTier(change.toPlan),
      reason: change.reason as PlanChangeReason,
      changedAt: change.changedAt,
    })),
  };
}

function stripeUnavailable(error: unknown): AppError {
  logError('a Stripe request failed', error);
  return new AppError(
    'SERVICE_UNAVAILABLE',
    'Stripe could not be reached to open the payment page; nothing was changed. Try again in a minute.',
    {
      headers: { 'Retry-After': '30' },
    },
  );
}

async function requireStripe(): Promise<Stripe> {
  const stripe = await stripeClient();
  if (!stripe) throw new AppError('NOT_FOUND', 'Billing is not set up on this deployment: the operator manages plans.');
  return stripe;
}

/**
 * Where the owner goes to choose `tier`: a Checkout Session for its subscription price, or, when the account already
 * has a live subscription, the Customer Portal, where Stripe changes it (prorated) or cancels it.
 */
export async function startCheckout(
  owner: BillingOwner,
  tier: SelfServeTier,
  origin: string,
): Promise<{ url: string; kind: 'checkout' | 'portal' }> {
  const stripe = await requireStripe();
  const price = configuredPrices()[tier];
  if (!price)
    throw new AppError('VALIDATION_ERROR', `The ${PLANS[tier].label} plan is not sold on this deployment.`, {
      errors: [{ in: 'body', pointer: '#/tier', detail: 'Not offered for checkout.' }],
    });
  const account = await db.account.findUniqueOrThrow({ where: { id: owner.accountId } });
  if (
    account.stripeCustomerId &&
    account.subscriptionStatus &&
    LIVE_SUBSCRIPTION_STATUSES.has(account.subscriptionStatus)
  ) {
    return { url: await portalUrl(stripe, account.stripeCustomerId, origin), kind: 'portal' };
  }
  try {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      client_reference_id: owner.accountId,
      ...(account.stripeCustomerId
        ? { customer: account.stripeCustomerId }
        : { customer_email: await ownerEmail(owner) }),
      subscription_data: { metadata: { accountId: owner.accountId } },
      metadata: { accountId: owner.accountId, tier },
      allow_promotion_codes: true,
      success_url: `${origin}/settings/billing?checkout=success`,
      cancel_url: `${origin}/settings/billing?checkout=cancelled`,
    });
    if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL');
    return { url: session.url, kind: 'checkout' };
  } catch (error) {
    throw stripeUnavailable(error);
  }
}

/** Stripe's Customer Portal for the account: change tier, update the card, see invoices, cancel. */
export async function openCustomerPortal(accountId: string, origin: string): Promise<{ url: string }> {
  const stripe = await requireStripe();
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId } });
  if (!account.stripeCustomerId)
    throw new AppError('NOT_FOUND', 'This account has no subscription yet: choose a plan first.');
  return { url: await portalUrl(stripe, account.stripeCustomerId, origin) };
}

async function portalUrl(stripe: Stripe, customer: string, origin: string): Promise<string> {
  try {
    const session = await stripe.billingPortal.sessions.create({ customer, return_url: `${origin}/settings/billing` });
    return session.url;
  } catch (error) {
    throw stripeUnavailable(error);
  }
}
