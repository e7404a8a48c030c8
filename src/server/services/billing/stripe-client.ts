// The Stripe SDK, configured from the environment (STRIPE_*): the one place that makes the client. Null when Stripe
// is not configured; the plan page then says the operator manages plans. STRIPE_API_URL points the SDK's host, port
// and protocol elsewhere, at a local stand-in of Stripe's HTTP API in the tests.
//
// The SDK is loaded with the first client, not with the module: a quarter of a second of CPU in every process that
// imports billing, which most deployments (Stripe unset) and most processes never use.
import type Stripe from 'stripe';
import { config } from '@/server/core/config';
import type { SelfServeTier } from '@/server/services/accounts/plans';

let client: Stripe | null | undefined;

export async function stripeClient(): Promise<Stripe | null> {
  if (client !== undefined) return client;
  const { STRIPE_SECRET_KEY, STRIPE_API_URL } = config();
  if (!STRIPE_SECRET_KEY) return (client = null);
  const api = STRIPE_API_URL ? new URL(STRIPE_API_URL) : null;
  const { default: StripeSdk } = await import('stripe');
  client = new StripeSdk(STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    appInfo: { name: 'aso-public-api' },
    ...(api && {
      host: api.hostname,
      port: api.port || (api.protocol === 'https:' ? 443 : 80),
      protocol: api.protocol === 'https:' ? 'https' : 'http',
    }),
  });
  return client;
}

/** Tests: the configuration changed. */
export function resetStripeClient(): void {
  client = undefined;
}

/** The subscription price of each tier that is offered for checkout. */
export function configuredPrices(): Partial<Record<SelfServeTier, string>> {
  const { STRIPE_PRICE_SOLO, STRIPE_PRICE_PRO, STRIPE_PRICE_BUSINESS, STRIPE_PRICE_AGENCY } = config();
  const prices: Partial<Record<SelfServeTier, string>> = {};
  if (STRIPE_PRICE_SOLO) prices.solo = STRIPE_PRICE_SOLO;
  if (STRIPE_PRICE_PRO) prices.pro = STRIPE_PRICE_PRO;
  if (STRIPE_PRICE_BUSINESS) prices.business = STRIPE_PRICE_BUSINESS;
  if (STRIPE_PRICE_AGENCY) prices.agency = STRIPE_PRICE_AGENCY;
  return prices;
}

/** The tier a subscription price stands for; undefined for a price this deployment does not sell. */
export function tierOfPrice(priceId: string): SelfServeTier | undefined {
  const entry = Object.entries(configuredPrices()).find(([, id]) => id === priceId);
  return entry?.[0] as SelfServeTier | undefined;
}
