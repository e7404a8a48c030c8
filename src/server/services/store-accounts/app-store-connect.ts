// An App Store Connect account's API, as its owner connected it (an API key: issuer id, key id, `.p8` private key):
// the apps it can see, every customer review of one with its response, and a response written, replaced or deleted.
// Each request carries a token signed with the key (ES256, audience `appstoreconnect-v1`, at most 20 minutes, as
// Apple's "Generating Tokens for API Requests" asks), made with jose. The address is APP_STORE_CONNECT_ORIGIN.
import { importPKCS8, SignJWT } from 'jose';
import { config } from '@/server/core/config';
import { StoreAccountError } from './store-account-errors';

export interface AppStoreConnectKey {
  issuerId: string;
  keyId: string;
  /** The `.p8` file's text: a PKCS #8 PEM of a P-256 private key. */
  privateKey: string;
}

/** How long a token lives: Apple refuses one of more than 20 minutes. */
const TOKEN_SECONDS = 15 * 60;

export interface ConnectApp {
  id: string;
  name: string;
  bundleId: string;
}

export interface ConnectReview {
  id: string;
  rating: number;
  title: string | null;
  body: string | null;
  reviewerNickname: string | null;
  createdAt: string;
  territory: string | null;
  response: { id: string; body: string; lastModifiedAt: string; state: string } | null;
}

/** A signed token for the key; a key that is not a P-256 PKCS #8 private key is refused, saying so. */
export async function connectToken(key: AppStoreConnectKey, now = new Date()): Promise<string> {
  let privateKey: CryptoKey;
  try {
    privateKey = await importPKCS8(key.privateKey.trim(), 'ES256');
  } catch {
    throw new StoreAccountError(
      'invalid-credential',
      'The private key is not an App Store Connect API key: paste the whole .p8 file, from "-----BEGIN PRIVATE KEY-----" to its end.',
    );
  }
  const issuedAt = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid: key.keyId, typ: 'JWT' })
    .setIssuer(key.issuerId)
    .setAudience('appstoreconnect-v1')
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + TOKEN_SECONDS)
    .sign(privateKey);
}

type JsonApiResource = {
  type: string;
  id: string;
  attributes?: Record<string, unknown>;
  relationships?: Record<string, { data?: { type: string; id: string } | null }>;
};
type JsonApiDocument = {
  data: JsonApiResource[] | JsonApiResource;
  included?: JsonApiResource[];
  links?: { next?: string };
};

/** One request of the account's, its refusals as StoreAccountError (what the owner can do about each). */
async function request(key: AppStoreConnectKey, path: string, init: RequestInit = {}): Promise<JsonApiDocument | null> {
  const url = path.startsWith('http') ? path : `${config().APP_STORE_CONNECT_ORIGIN}${path}`;
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: {
        Authorization: `Bearer ${await connectToken(key)}`,
        ...(init.body ? { 'Content-Type': 'application/json' } : {}),
      },
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    if (error instanceof StoreAccountError) throw error;
    throw new StoreAccountError('store-unavailable', 'App Store Connect did not answer; try again in a few minutes.');
  }
  if (response.status === 204) return null;
  const body = (await response.json().catch(() => null)) as
    | (JsonApiDocument & { errors?: { code?: string; detail?: string }[] })
    | null;
  if (response.ok && body) return body;
  const detail = body?.errors?.[0]?.detail ?? `App Store Connect answered ${response.status}.`;
  if (response.status === 401 || response.status === 403)
    throw new StoreAccountError(
      'credential-refused',
      `App Store Connect refused the key (${detail}): it was revoked, or it lacks the Customer Support role.`,
    );
  if (response.status === 404) throw new StoreAccountError('not-found', detail);
  if (response.status === 409 || response.status === 422) throw new StoreAccountError('refused', detail);
  if (response.status === 429)
    throw new StoreAccountError('rate-limited', 'App Store Connect asks to slow down.', {
      retryAfterSeconds: Number(response.headers.get('retry-after')) || 60,
    });
  throw new StoreAccountError('store-unavailable', detail);
}

/** Every page of a list, following `links.next`. */
async function everyPage(key: AppStoreConnectKey, path: string): Promise<JsonApiDocument[]> {
  const pages: JsonApiDocument[] = [];
  for (let next: string | undefined = path; next; ) {
    const page: JsonApiDocument = (await request(key, next))!;
    pages.push(page);
    next = page.links?.next;
  }
  return pages;
}

/** The apps the key can see: what connecting checks it against. */
export async function listConnectApps(key: AppStoreConnectKey): Promise<ConnectApp[]> {
  const pages = await everyPage(key, '/v1/apps?limit=200&fields[apps]=name,bundleId');
  return pages.flatMap((page) =>
    (page.data as JsonApiResource[]).map((app) => ({
      id: app.id,
      name: String(app.attributes?.name ?? ''),
      bundleId: String(app.attributes?.bundleId ?? ''),
    })),
  );
}

/** Every customer review of the app, newest first, with its response if it has one. */
export async function listConnectReviews(key: AppStoreConnectKey, appId: string): Promise<ConnectReview[]> {
  const pages = await everyPage(
    key,
    `/v1/apps/${encodeURIComponent(appId)}/customerReviews?limit=200&sort=-createdDate&include=response`,
  );
  return pages.flatMap((page) => {
    const responses = new Map((page.included ?? []).map((resource) => [resource.id, resource]));
    return (page.data as JsonApiResource[]).map((review) => {
      const attributes = review.attributes ?? {};
      const responseId = review.relationships?.response?.data?.id;
      const response = responseId ? responses.get(responseId) : undefined;
      return {
        id: review.id,
        rating: Number(attributes.rating),
        title: (attributes.title as string | undefined) ?? null,
        body: (attributes.body as string | undefined) ?? null,
        reviewerNickname: (attributes.reviewerNickname as string | undefined) ?? null,
        createdAt: String(attributes.createdDate),
        territory: (attributes.territory as string | undefined) ?? null,
        response: response
          ? {
              id: response.id,
              body: String(response.attributes?.responseBody ?? ''),
              lastModifiedAt: String(response.attributes?.lastModifiedDate ?? ''),
              state: String(response.attributes?.state ?? ''),
            }
          : null,
      };
    });
  });
}

/** Writes the developer's response to a review (Apple keeps one a review: a new one replaces the old). */
export async function respondToReview(
  key: AppStoreConnectKey,
  reviewId: string,
  text: string,
): Promise<{ id: string; state: string }> {
  const created = (await request(key, '/v1/customerReviewResponses', {
    method: 'POST',
    body: JSON.stringify({
      data: {
        type: 'customerReviewResponses',
        attributes: { responseBody: text },
        relationships: { review: { data: { type: 'customerReviews', id: reviewId } } },
      },
    }),
  }))!.data as JsonApiResource;
  return { id: created.id, state: String(created.attributes?.state ?? '') };
}

/** Deletes a response. */
export async function deleteReviewResponse(key: AppStoreConnectKey, responseId: string): Promise<void> {
  await request(key, `/v1/customerReviewResponses/${encodeURIComponent(responseId)}`, { method: 'DELETE' });
}

/** The response a review has at the store now, or null: what a send that died midway is settled by. */
export async function readReviewResponse(
  key: AppStoreConnectKey,
  reviewId: string,
): Promise<{ id: string; body: string; state: string } | null> {
  let document: JsonApiDocument | null;
  try {
    document = await request(key, `/v1/customerReviews/${encodeURIComponent(reviewId)}/response`);
  } catch (error) {
    // Apple answers 404 for a review without a response as for a review that is gone: the send will tell which.
    if (error instanceof StoreAccountError && error.kind === 'not-found') return null;
    throw error;
  }
  const response = document?.data as JsonApiResource | null | undefined;
  if (!response) return null;
  return {
    id: response.id,
    body: String(response.attributes?.responseBody ?? ''),
    state: String(response.attributes?.state ?? ''),
  };
}
