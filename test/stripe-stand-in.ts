// A local stand-in of the parts of Stripe's HTTP API the billing service calls (Checkout Sessions, Billing Portal
// sessions, subscriptions, prices), for the SDK pointed at it with STRIPE_API_URL. It answers as Stripe does (JSON
// objects with the same members) from state a test sets, and records each request, as the SDK sent it, form-encoded.
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

interface RecordedRequest {
  method: string;
  path: string;
  /** The form-encoded body, flattened: `line_items[0][price]` → value. */
  form: Record<string, string>;
  authorization: string | undefined;
}

export interface StripeStandIn {
  url: string;
  requests: RecordedRequest[];
  prices: Map<string, { unit_amount: number; currency: string }>;
  subscriptions: Map<string, { customer: string; status: string; price: string; metadata: Record<string, string> }>;
  /** A signed event as Stripe would deliver it, with the SDK's test header helper. */
  signedEvent(
    type: string,
    object: Record<string, unknown>,
    secret: string,
    id?: string,
  ): { body: string; signature: string; id: string };
  close(): Promise<void>;
}

function subscriptionObject(
  id: string,
  entry: { customer: string; status: string; price: string; metadata: Record<string, string> },
) {
  return {
    id,
    object: 'subscription',
    customer: entry.customer,
    status: entry.status,
    metadata: entry.metadata,
    items: {
      object: 'list',
      data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: entry.price, object: 'price' } }],
    },
  };
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const prices = new Map<string, { unit_amount: number; currency: string }>();
  const subscriptions = new Map<
    string,
    { customer: string; status: string; price: string; metadata: Record<string, string> }
  >();
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
      const form = Object.fromEntries(new URLSearchParams(raw));
      requests.push({ method: req.method ?? 'GET', path, form, authorization: req.headers.authorization });
      const answer = (status: number, body: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': `req_${randomUUID()}` });
        res.end(JSON.stringify(body));
      };
      const missing = () =>
        answer(404, { error: { type: 'invalid_request_error', message: `No such object: ${path}` } });
      // The pages a browser is sent to: Stripe's hosted Checkout and Customer Portal, as a page that names itself.
      const page = /^\/(checkout|portal)\/(\w+)$/.exec(path);
      if (req.method === 'GET' && page) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(
          `<!doctype html><title>Stripe ${page[1]} stand-in</title><h1>Stripe ${page[1]} stand-in</h1><p id="session">${page[2]}</p>`,
        );
      }
      const self = `http://${req.headers.host}`;
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${randomUUID().replaceAll('-', '')}`;
        return answer(200, {
          id,
          object: 'checkout.session',
          mode: form.mode,
          url: `${self}/checkout/${id}`,
          client_reference_id: form.client_reference_id ?? null,
        });
      }
      if (req.method === 'POST' && path === '/v1/billing_portal/sessions') {
        const id = `bps_${randomUUID().replaceAll('-', '')}`;
        return answer(200, {
          id,
          object: 'billing_portal.session',
          customer: form.customer,
          url: `${self}/portal/${id}`,
          return_url: form.return_url,
        });
      }
      const subscription = /^\/v1\/subscriptions\/([\w]+)$/.exec(path);
      if (req.method === 'GET' && subscription) {
        const entry = subscriptions.get(subscription[1]!);
        return entry ? answer(200, subscriptionObject(subscription[1]!, entry)) : missing();
      }
      const price = /^\/v1\/prices\/([\w]+)$/.exec(path);
      if (req.method === 'GET' && price) {
        const entry = prices.get(price[1]!);
        return entry
          ? answer(200, { id: price[1], object: 'price', recurring: { interval: 'month' }, ...entry })
          : missing();
      }
      missing();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const sdk = new Stripe('sk_test_signing_only');
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    prices,
    subscriptions,
    signedEvent(type, object, secret, id = `evt_${randomUUID().replaceAll('-', '')}`) {
      const body = JSON.stringify({
        id,
        object: 'event',
        type,
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        data: { object },
        livemode: false,
      });
      return { body, signature: sdk.webhooks.generateTestHeaderString({ payload: body, secret }), id };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
