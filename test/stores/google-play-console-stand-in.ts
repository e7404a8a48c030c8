// A stand-in for Google's token endpoint and the Google Play Developer API's reviews, written from Google's reference
// ("Using OAuth 2.0 for Server to Server Applications": the JWT bearer grant; androidpublisher v3 `reviews.list` and
// `reviews.reply`): the token endpoint is the service account key's `token_uri`, checks the assertion's RS256 signature
// with the key it issued, its issuer, audience and scope, and issues an access token the API then requires.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportPKCS8, generateKeyPair, jwtVerify, type CryptoKey } from 'jose';

interface StandInPlayReview {
  reviewId: string;
  authorName: string;
  text: string;
  starRating: number;
  lastModifiedSeconds: number;
  reply?: { text: string; lastModifiedSeconds: number };
}

export interface GooglePlayConsoleStandIn {
  origin: string;
  /** The service account's JSON key, as Google Cloud gives it (its token_uri is the stand-in's). */
  keyJson: string;
  packages: Map<string, StandInPlayReview[]>;
  /** Every reply written, in order: a reply sent twice shows here twice. */
  received: { packageName: string; reviewId: string; replyText: string }[];
  /** Disables the key: the token endpoint refuses it, and the tokens it gave stop working (until restore). */
  disable(): void;
  restore(): void;
  /** The next `count` API requests are 429. */
  throttle(count: number): void;
  /** Deletes a review, as its author can. */
  deleteReview(reviewId: string): void;
  close(): Promise<void>;
}

const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const PAGE = 2;

/** `port`: a fixed one (the e2e server's stand-ins), else any free one. */
export async function startGooglePlayConsoleStandIn(port = 0): Promise<GooglePlayConsoleStandIn> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const tokens = new Set<string>();
  const received: GooglePlayConsoleStandIn['received'] = [];
  let disabled = false;
  let throttled = 0;
  const email = 'aso-replies@calm-labs.iam.gserviceaccount.com';
  const packages = new Map<string, StandInPlayReview[]>([
    [
      'com.calmlabs.breathe',
      Array.from({ length: 3 }, (_, index) => ({
        reviewId: `gp:AOqpTO${index}`,
        authorName: `Player ${index}`,
        text: `\tReview ${index} of the app`,
        starRating: 3 + (index % 3),
        lastModifiedSeconds: Date.UTC(2026, 10, 25 - index) / 1000,
        ...(index === 0 && {
          reply: { text: 'Thanks for playing!', lastModifiedSeconds: Date.UTC(2026, 10, 26) / 1000 },
        }),
      })),
    ],
  ]);
  let origin = '';

  const control = {
    disable: () => {
      disabled = true;
      tokens.clear();
    },
    restore: () => {
      disabled = false;
    },
    throttle: (count: number) => {
      throttled = count;
    },
    deleteReview: (reviewId: string) => {
      for (const [name, reviews] of packages)
        packages.set(
          name,
          reviews.filter((review) => review.reviewId !== reviewId),
        );
    },
  };

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, body: unknown) =>
      res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
    const apiError = (status: number, message: string) => send(status, { error: { code: status, message } });
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://stand-in');
    // The test's own controls (an e2e test runs in another process than the stand-in): not Google's.
    if (url.pathname.startsWith('/_stand-in/')) {
      const what = url.pathname.slice('/_stand-in/'.length);
      if (what === 'received') return send(200, received);
      if (what === 'revoke') control.disable();
      else if (what === 'restore') control.restore();
      else if (what === 'delete-review') control.deleteReview(url.searchParams.get('id') ?? '');
      else return send(404, {});
      return res.writeHead(204).end();
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(text);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer')
        return send(400, { error: 'unsupported_grant_type' });
      if (disabled) return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      try {
        const { payload } = await jwtVerify(form.get('assertion') ?? '', publicKey, {
          algorithms: ['RS256'],
          issuer: email,
          audience: `${origin}/token`,
        });
        if (
          !String(payload.scope ?? '')
            .split(' ')
            .includes(SCOPE)
        )
          return send(400, { error: 'invalid_scope', error_description: 'The androidpublisher scope is missing.' });
      } catch (error) {
        return send(400, { error: 'invalid_grant', error_description: (error as Error).message });
      }
      const token = `ya29.${randomUUID()}`;
      tokens.add(token);
      return send(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
    }
    const bearer = req.headers.authorization?.replace(/^Bearer /, '');
    if (!bearer || !tokens.has(bearer)) return apiError(401, 'Request had invalid authentication credentials.');
    if (throttled > 0) {
      throttled--;
      return apiError(429, 'Quota exceeded.');
    }
    const one = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews\/([^/:]+)$/.exec(url.pathname);
    if (req.method === 'GET' && one) {
      const review = packages
        .get(decodeURIComponent(one[1]!))
        ?.find((each) => each.reviewId === decodeURIComponent(one[2]!));
      if (!review) return apiError(404, 'The review was not found.');
      return send(200, {
        reviewId: review.reviewId,
        authorName: review.authorName,
        comments: [
          { userComment: { text: review.text, starRating: review.starRating } },
          ...(review.reply
            ? [
                {
                  developerComment: {
                    text: review.reply.text,
                    lastModified: { seconds: String(review.reply.lastModifiedSeconds), nanos: 0 },
                  },
                },
              ]
            : []),
        ],
      });
    }
    const list = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews$/.exec(url.pathname);
    if (req.method === 'GET' && list) {
      const reviews = packages.get(decodeURIComponent(list[1]!));
      if (!reviews) return apiError(403, 'The caller does not have permission.');
      const offset = Number(url.searchParams.get('token') ?? 0);
      const page = reviews.slice(offset, offset + PAGE);
      return send(200, {
        reviews: page.map((review) => ({
          reviewId: review.reviewId,
          authorName: review.authorName,
          comments: [
            {
              userComment: {
                text: review.text,
                lastModified: { seconds: String(review.lastModifiedSeconds), nanos: 0 },
                starRating: review.starRating,
                reviewerLanguage: 'en',
                appVersionName: '4.2.0',
              },
            },
            ...(review.reply
              ? [
                  {
                    developerComment: {
                      text: review.reply.text,
                      lastModified: { seconds: String(review.reply.lastModifiedSeconds), nanos: 0 },
                    },
                  },
                ]
              : []),
          ],
        })),
        ...(offset + PAGE < reviews.length && { tokenPagination: { nextPageToken: String(offset + PAGE) } }),
      });
    }
    const reply = /^\/androidpublisher\/v3\/applications\/([^/]+)\/reviews\/([^/]+):reply$/.exec(url.pathname);
    if (req.method === 'POST' && reply) {
      const packageName = decodeURIComponent(reply[1]!);
      const review = packages.get(packageName)?.find((each) => each.reviewId === decodeURIComponent(reply[2]!));
      if (!review) return apiError(404, 'The review was not found.');
      const replyText = String((JSON.parse(text) as { replyText?: string }).replyText ?? '');
      if (replyText.length > 350) return apiError(400, 'The reply is too long.');
      received.push({ packageName, reviewId: review.reviewId, replyText });
      review.reply = { text: replyText, lastModifiedSeconds: Math.floor(Date.now() / 1000) };
      return send(200, {
        result: { replyText, lastEdited: { seconds: String(review.reply.lastModifiedSeconds), nanos: 0 } },
      });
    }
    apiError(404, `No route ${req.method} ${url.pathname}.`);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const keyJson = JSON.stringify({
    type: 'service_account',
    project_id: 'calm-labs',
    private_key_id: 'b1c2d3',
    private_key: await exportPKCS8(privateKey as CryptoKey),
    client_email: email,
    client_id: '1234567890',
    token_uri: `${origin}/token`,
  });
  return {
    origin,
    keyJson,
    packages,
    received,
    ...control,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
