import { routeMethods } from '@/app/api/route-methods';
import { serverModules } from '@/app/server-modules';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** Stripe's events about subscriptions (src/server/services/billing/stripe-events.ts). The raw body: its signature covers the exact bytes. */
async function stripeWebhook(request: Request): Promise<Response> {
  const { handleStripeWebhook } = await serverModules();
  const answer = await handleStripeWebhook(await request.text(), request.headers.get('stripe-signature'));
  return Response.json(answer.body, { status: answer.status, headers: { 'Cache-Control': 'no-store' } });
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ POST: stripeWebhook });
