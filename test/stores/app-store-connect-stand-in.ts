// A stand-in for the App Store Connect API, written from Apple's reference ("Generating Tokens for API Requests",
// "List All Apps", "List All Customer Reviews for an App", "Create a Customer Review Response", "Delete a Customer
// Review Response"): it checks each token as Apple does (ES256 signature of the key it issued, `kid`, issuer, audience
// `appstoreconnect-v1`, expiry at most 20 minutes after issue) and answers in JSON:API with Apple's error shape.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportPKCS8, generateKeyPair, jwtVerify, decodeProtectedHeader, type CryptoKey } from 'jose';

interface StandInReview {
  id: string;
  rating: number;
  title: string;
  body: string;
  reviewerNickname: string;
  createdDate: string;
  territory: string;
  response?: { id: string; responseBody: string; lastModifiedDate: string; state: string };
}

export interface AppStoreConnectStandIn {
  origin: string;
  /** The key its owner downloaded: what connecting takes. */
  key: { issuerId: string; keyId: string; privateKey: string };
  apps: { id: string; name: string; bundleId: string; reviews: StandInReview[] }[];
  /** Every response written, in order: a reply sent twice shows here twice. */
  received: { reviewId: string; responseBody: string }[];
  /** Revokes a key (by default the first): every later request with it is 401 (until restore). */
  revoke(keyId?: string): void;
  restore(keyId?: string): void;
  /** Another key of the same issuer, as its owner would make one in App Store Connect. */
  issueKey(): Promise<{ issuerId: string; keyId: string; privateKey: string }>;
  /** The next `count` requests are 429. */
  throttle(count: number): void;
  /** The next `count` requests are 503. */
  fail(count: number): void;
  /** Deletes a review, as its author can. */
  deleteReview(reviewId: string): void;
  close(): Promise<void>;
}

const PAGE = 2;

function errorBody(status: number, code: string, detail: string) {
  return JSON.stringify({ errors: [{ status: String(status), code, title: code, detail }] });
}

/** `port`: a fixed one (the e2e server's stand-ins), else any free one. */
export async function startAppStoreConnectStandIn(port = 0): Promise<AppStoreConnectStandIn> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const key = {
    issuerId: '57246542-96fe-1a63-e053-0824d011072a',
    keyId: '2X9R4HXF34',
    privateKey: await exportPKCS8(privateKey as CryptoKey),
  };
  const keys = new Map([[key.keyId, { publicKey, revoked: false }]]);
  let throttled = 0;
  let failing = 0;
  let responses = 0;
  const received: AppStoreConnectStandIn['received'] = [];
  const apps: AppStoreConnectStandIn['apps'] = [
    {
      id: '1459969523',
      name: 'Breathe: Sleep & Meditation',
      bundleId: 'com.calmlabs.breathe',
      reviews: Array.from({ length: 5 }, (_, index) => ({
        id: `00000042-0001-0000-0000-00000000000${index}`,
        rating: 5 - (index % 5),
        title: `Review ${index}`,
        body: `What reviewer ${index} thinks of it.`,
        reviewerNickname: `reviewer${index}`,
        createdDate: new Date(Date.UTC(2026, 10, 20 - index)).toISOString(),
        territory: 'USA',
        ...(index === 1 && {
          response: {
            id: 'resp-1',
            responseBody: 'Thank you!',
            lastModifiedDate: new Date(Date.UTC(2026, 10, 21)).toISOString(),
            state: 'PUBLISHED',
          },
        }),
      })),
    },
  ];

  async function authorized(header: string | undefined): Promise<string | null> {
    const token = header?.startsWith('Bearer ') ? header.slice(7) : null;
    if (!token) return 'The key was revoked or is not valid.';
    try {
      const issued = keys.get(String(decodeProtectedHeader(token).kid));
      if (!issued) return 'The token’s kid is not a key of this issuer.';
      if (issued.revoked) return 'The key was revoked or is not valid.';
      const { payload } = await jwtVerify(token, issued.publicKey, {
        algorithms: ['ES256'],
        audience: 'appstoreconnect-v1',
        issuer: key.issuerId,
      });
      if (typeof payload.exp !== 'number' || payload.exp - (payload.iat ?? Date.now() / 1000) > 20 * 60)
        return 'A token lives at most 20 minutes.';
      return null;
    } catch (error) {
      return `The token is not valid: ${(error as Error).message}`;
    }
  }

  const control = {
    revoke: (keyId = key.keyId) => {
      const issued = keys.get(keyId);
      if (issued) issued.revoked = true;
    },
    restore: (keyId = key.keyId) => {
      const issued = keys.get(keyId);
      if (issued) issued.revoked = false;
    },
    issueKey: async () => {
      const pair = await generateKeyPair('ES256', { extractable: true });
      const keyId = randomBytes(5).toString('hex').toUpperCase();
      keys.set(keyId, { publicKey: pair.publicKey, revoked: false });
      return { issuerId: key.issuerId, keyId, privateKey: await exportPKCS8(pair.privateKey as CryptoKey) };
    },
    throttle: (count: number) => {
      throttled = count;
    },
    fail: (count: number) => {
      failing = count;
    },
    deleteReview: (reviewId: string) => {
      for (const app of apps) app.reviews = app.reviews.filter((review) => review.id !== reviewId);
    },
  };

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body?: string) => {
      res.writeHead(status, body ? { 'Content-Type': 'application/json' } : {}).end(body);
    };
    // The test's own controls (an e2e test runs in another process than the stand-in): not Apple's.
    const controlUrl = new URL(req.url ?? '/', 'http://stand-in');
    if (controlUrl.pathname.startsWith('/_stand-in/')) {
      const what = controlUrl.pathname.slice('/_stand-in/'.length);
      const keyId = controlUrl.searchParams.get('keyId') ?? undefined;
      if (what === 'received') return send(200, JSON.stringify(received));
      if (what === 'keys') return send(200, JSON.stringify(await control.issueKey()));
      if (what === 'revoke') control.revoke(keyId);
      else if (what === 'restore') control.restore(keyId);
      else if (what === 'delete-review') control.deleteReview(controlUrl.searchParams.get('id') ?? '');
      else if (what === 'reviews') return send(200, JSON.stringify(apps));
      else return send(404);
      return send(204);
    }
    const refusal = await authorized(req.headers.authorization);
    if (refusal) return send(401, errorBody(401, 'NOT_AUTHORIZED', refusal));
    if (throttled > 0) {
      throttled--;
      res.setHeader('Retry-After', '1');
      return send(429, errorBody(429, 'RATE_LIMIT_EXCEEDED', 'Too many requests.'));
    }
    if (failing > 0) {
      failing--;
      return send(503, errorBody(503, 'SERVICE_UNAVAILABLE', 'The service is unavailable.'));
    }
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const reviewsOf = /^\/v1\/apps\/([^/]+)\/customerReviews$/.exec(url.pathname);
    if (req.method === 'GET' && url.pathname === '/v1/apps') {
      return send(
        200,
        JSON.stringify({
          data: apps.map((app) => ({
            type: 'apps',
            id: app.id,
            attributes: { name: app.name, bundleId: app.bundleId },
          })),
          links: { self: url.href },
        }),
      );
    }
    if (req.method === 'GET' && reviewsOf) {
      const app = apps.find((each) => each.id === reviewsOf[1]);
      if (!app) return send(404, errorBody(404, 'NOT_FOUND', 'There is no app with this id.'));
      const offset = Number(url.searchParams.get('cursor') ?? 0);
      const page = app.reviews.slice(offset, offset + PAGE);
      const next = offset + PAGE < app.reviews.length ? new URL(url.href) : null;
      next?.searchParams.set('cursor', String(offset + PAGE));
      return send(
        200,
        JSON.stringify({
          data: page.map((review) => ({
            type: 'customerReviews',
            id: review.id,
            attributes: {
              rating: review.rating,
              title: review.title,
              body: review.body,
              reviewerNickname: review.reviewerNickname,
              createdDate: review.createdDate,
              territory: review.territory,
            },
            relationships: {
              response: { data: review.response ? { type: 'customerReviewResponses', id: review.response.id } : null },
            },
          })),
          included: page
            .filter((review) => review.response)
            .map((review) => ({
              type: 'customerReviewResponses',
              id: review.response!.id,
              attributes: {
                responseBody: review.response!.responseBody,
                lastModifiedDate: review.response!.lastModifiedDate,
                state: review.response!.state,
              },
            })),
          links: { self: url.href, ...(next && { next: `${origin}${next.pathname}${next.search}` }) },
        }),
      );
    }
    if (req.method === 'POST' && url.pathname === '/v1/customerReviewResponses') {
      let text = '';
      for await (const chunk of req) text += chunk;
      const data = (
        JSON.parse(text) as {
          data: { attributes: { responseBody: string }; relationships: { review: { data: { id: string } } } };
        }
      ).data;
      const review = apps.flatMap((app) => app.reviews).find((each) => each.id === data.relationships.review.data.id);
      if (!review) return send(404, errorBody(404, 'NOT_FOUND', 'The review was deleted.'));
      if (data.attributes.responseBody.length > 5970)
        return send(409, errorBody(409, 'ENTITY_ERROR.ATTRIBUTE.INVALID', 'The response is too long.'));
      received.push({ reviewId: review.id, responseBody: data.attributes.responseBody });
      review.response = {
        id: `resp-new-${++responses}`,
        responseBody: data.attributes.responseBody,
        lastModifiedDate: new Date().toISOString(),
        state: 'PENDING_PUBLISH',
      };
      return send(
        201,
        JSON.stringify({
          data: {
            type: 'customerReviewResponses',
            id: review.response.id,
            attributes: { responseBody: review.response.responseBody, state: review.response.state },
          },
        }),
      );
    }
    const responseOfReview = /^\/v1\/customerReviews\/([^/]+)\/response$/.exec(url.pathname);
    if (req.method === 'GET' && responseOfReview) {
      const review = apps.flatMap((app) => app.reviews).find((each) => each.id === responseOfReview[1]);
      if (!review) return send(404, errorBody(404, 'NOT_FOUND', 'There is no review with this id.'));
      return send(
        200,
        JSON.stringify({
          data: review.response
            ? {
                type: 'customerReviewResponses',
                id: review.response.id,
                attributes: {
                  responseBody: review.response.responseBody,
                  lastModifiedDate: review.response.lastModifiedDate,
                  state: review.response.state,
                },
              }
            : null,
          links: { self: url.href },
        }),
      );
    }
    const responseOf = /^\/v1\/customerReviewResponses\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && responseOf) {
      const review = apps.flatMap((app) => app.reviews).find((each) => each.response?.id === responseOf[1]);
      if (!review) return send(404, errorBody(404, 'NOT_FOUND', 'There is no such response.'));
      delete review.response;
      return send(204);
    }
    send(404, errorBody(404, 'NOT_FOUND', `No route ${req.method} ${url.pathname}.`));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    key,
    apps,
    received,
    ...control,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
