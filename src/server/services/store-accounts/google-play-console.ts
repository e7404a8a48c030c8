// A Google Play Console account's API, as its owner connected it (a service account's JSON key, with access to the
// apps in Play Console): the reviews of an app and a reply written. The token is asked at the key's own `token_uri`
// (RFC 7523's JWT bearer grant, the assertion signed RS256 with the key, scope `androidpublisher`), made with jose:
// google-auth-library's service-account client asks a fixed https://oauth2.googleapis.com/token whatever the key says
// (its gtoken, 10.x and 11.x alike). The API's address is GOOGLE_PLAY_DEVELOPER_API_ORIGIN.
import { importPKCS8, SignJWT } from 'jose';
import { z } from 'zod';
import { config } from '@/server/core/config';
import { checkDestinationUrl, resolveDestination } from '@/server/services/webhooks/destinations';
import { StoreAccountError } from './store-account-errors';

const ANDROID_PUBLISHER_SCOPE = 'https://www.googleapis.com/auth/androidpublisher';

/** What a service account's JSON key holds that the API needs. */
const serviceAccountKey = z.looseObject({
  type: z.literal('service_account', 'This is not a service account key (its "type" is not "service_account").'),
  client_email: z.email('The key has no client_email.'),
  private_key: z.string().min(1, 'The key has no private_key.'),
  private_key_id: z.string().optional(),
  token_uri: z.url('The key has no token_uri.').default('https://oauth2.googleapis.com/token'),
});
export type ServiceAccountKey = z.infer<typeof serviceAccountKey>;

export interface PlayReview {
  id: string;
  authorName: string | null;
  rating: number;
  text: string | null;
  language: string | null;
  appVersion: string | null;
  lastModifiedAt: string;
  reply: { text: string; lastModifiedAt: string } | null;
}

/** A parsed key, or the refusal that says what is wrong with the text pasted. */
export function parseServiceAccountKey(text: string): ServiceAccountKey {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new StoreAccountError(
      'invalid-credential',
      'The key is not JSON: paste the whole file Google Cloud gave you.',
    );
  }
  const parsed = serviceAccountKey.safeParse(json);
  if (!parsed.success) throw new StoreAccountError('invalid-credential', parsed.error.issues[0]!.message);
  return parsed.data;
}

/** An access token for the API, from the key's `token_uri`. */
export async function playAccessToken(key: ServiceAccountKey, now = new Date()): Promise<string> {
  let privateKey: CryptoKey;
  try {
    privateKey = await importPKCS8(key.private_key, 'RS256');
  } catch {
    throw new StoreAccountError('invalid-credential', 'The key’s private_key is not an RSA private key.');
  }
  // The key names where its token is asked: never an address inside our network (the webhooks' rule), since anyone
  // may paste a key.
  const destination = checkDestinationUrl(key.token_uri);
  if (!destination.ok || !(await resolveDestination(destination.url)).ok)
    throw new StoreAccountError(
      'invalid-credential',
      'The key’s token_uri is not one of Google’s public addresses: paste the key as Google Cloud gave it.',
    );
  const issuedAt = Math.floor(now.getTime() / 1000);
  const assertion = await new SignJWT({ scope: ANDROID_PUBLISHER_SCOPE })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', ...(key.private_key_id && { kid: key.private_key_id }) })
    .setIssuer(key.client_email)
    .setAudience(key.token_uri)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + 3600)
    .sign(privateKey);
  let response: Response;
  try {
    response = await fetch(key.token_uri, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new StoreAccountError('store-unavailable', 'Google’s sign-in did not answer; try again in a few minutes.');
  }
  const body = (await response.json().catch(() => null)) as {
    access_token?: string;
    error?: string;
    error_description?: string;
  } | null;
  if (response.ok && body?.access_token) return body.access_token;
  if (response.status === 400 || response.status === 401)
    throw new StoreAccountError(
      'credential-refused',
      `Google refused the service account (${body?.error_description ?? body?.error ?? response.status}): its key was deleted or disabled.`,
    );
  throw new StoreAccountError('store-unavailable', `Google’s sign-in answered ${response.status}.`);
}

async function request(key: ServiceAccountKey, path: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
  const token = await playAccessToken(key);
  let response: Response;
  try {
    response = await fetch(`${config().GOOGLE_PLAY_DEVELOPER_API_ORIGIN}/androidpublisher/v3${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${token}`, ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new StoreAccountError('store-unavailable', 'Google Play did not answer; try again in a few minutes.');
  }
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null;
  if (response.ok) return body ?? {};
  const detail =
    (body?.error as { message?: string } | undefined)?.message ?? `Google Play answered ${response.status}.`;
  if (response.status === 401 || response.status === 403)
    throw new StoreAccountError(
      'credential-refused',
      `Google Play refused the service account (${detail}): give it access to the app in Play Console (Users and permissions, "Reply to reviews").`,
    );
  if (response.status === 404) throw new StoreAccountError('not-found', detail);
  if (response.status === 400) throw new StoreAccountError('refused', detail);
  if (response.status === 429)
    throw new StoreAccountError('rate-limited', 'Google Play asks to slow down.', {
      retryAfterSeconds: Number(response.headers.get('retry-after')) || 60,
    });
  throw new StoreAccountError('store-unavailable', detail);
}

type Timestamp = { seconds?: string; nanos?: number };
const isoOf = (time: Timestamp | undefined) =>
  new Date(Number(time?.seconds ?? 0) * 1000 + Math.floor((time?.nanos ?? 0) / 1e6)).toISOString();

/**
 * The app's reviews the API gives: Google gives those created or changed in the last 7 days only, so a connected
 * account's are read every day and kept (the reviews it held are not given again).
 */
export async function listPlayReviews(key: ServiceAccountKey, packageName: string): Promise<PlayReview[]> {
  const reviews: PlayReview[] = [];
  for (let token: string | undefined, first = true; first || token; first = false) {
    const query = new URLSearchParams({ maxResults: '100', ...(token && { token }) });
    const page = await request(key, `/applications/${encodeURIComponent(packageName)}/reviews?${query}`);
    for (const review of (page.reviews ?? []) as {
      reviewId: string;
      authorName?: string;
      comments?: {
        userComment?: {
          text?: string;
          starRating?: number;
          reviewerLanguage?: string;
          appVersionName?: string;
          lastModified?: Timestamp;
        };
        developerComment?: { text?: string; lastModified?: Timestamp };
      }[];
    }[]) {
      const user = review.comments?.find((comment) => comment.userComment)?.userComment;
      const developer = review.comments?.find((comment) => comment.developerComment)?.developerComment;
      reviews.push({
        id: review.reviewId,
        authorName: review.authorName ?? null,
        rating: user?.starRating ?? 0,
        text: user?.text?.trim() ?? null,
        language: user?.reviewerLanguage ?? null,
        appVersion: user?.appVersionName ?? null,
        lastModifiedAt: isoOf(user?.lastModified),
        reply: developer ? { text: developer.text ?? '', lastModifiedAt: isoOf(developer.lastModified) } : null,
      });
    }
    token = (page.tokenPagination as { nextPageToken?: string } | undefined)?.nextPageToken;
  }
  return reviews;
}

/** Writes (or replaces) the developer's reply to a review; Google refuses one of more than about 350 characters. */
export async function replyToPlayReview(
  key: ServiceAccountKey,
  packageName: string,
  reviewId: string,
  text: string,
): Promise<{ text: string; lastModifiedAt: string }> {
  const answer = await request(
    key,
    `/applications/${encodeURIComponent(packageName)}/reviews/${encodeURIComponent(reviewId)}:reply`,
    { method: 'POST', body: JSON.stringify({ replyText: text }) },
  );
  const result = answer.result as { replyText?: string; lastEdited?: Timestamp } | undefined;
  return { text: result?.replyText ?? text, lastModifiedAt: isoOf(result?.lastEdited) };
}

/** The reply a review has at the store now, or null: what a send that died midway is settled by. */
export async function readPlayReply(
  key: ServiceAccountKey,
  packageName: string,
  reviewId: string,
): Promise<{ text: string; lastModifiedAt: string } | null> {
  const review = await request(
    key,
    `/applications/${encodeURIComponent(packageName)}/reviews/${encodeURIComponent(reviewId)}`,
  );
  const developer = (
    review.comments as { developerComment?: { text?: string; lastModified?: Timestamp } }[] | undefined
  )?.find((comment) => comment.developerComment)?.developerComment;
  return developer ? { text: developer.text ?? '', lastModifiedAt: isoOf(developer.lastModified) } : null;
}
