// The stores' own APIs for a connected account, against stand-ins written from their references
// (test/stores/app-store-connect-stand-in.ts, test/stores/google-play-console-stand-in.ts): the token each store checks,
// every review with its answer across pages, an answer written, and each refusal in the owner's terms.
import { describe, expect, it } from 'vitest';
import { useStoreStandIns } from '../../../../test/stores/store-stand-ins';
import {
  connectToken,
  deleteReviewResponse,
  listConnectApps,
  listConnectReviews,
  respondToReview,
} from './app-store-connect';
import { listPlayReviews, parseServiceAccountKey, playAccessToken, replyToPlayReview } from './google-play-console';
import { StoreAccountError } from './store-account-errors';

const standIns = useStoreStandIns();

async function refusal(promise: Promise<unknown>): Promise<StoreAccountError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StoreAccountError);
  return error as StoreAccountError;
}

describe('App Store Connect', () => {
  it('signs a token Apple accepts: ES256 with the key, its kid and issuer, for appstoreconnect-v1, under 20 minutes', async () => {
    expect(await listConnectApps(standIns.apple.key)).toEqual([
      { id: '1459969523', name: 'Breathe: Sleep & Meditation', bundleId: 'com.calmlabs.breathe' },
    ]);
    const [header, payload] = (await connectToken(standIns.apple.key))
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'ES256', kid: standIns.apple.key.keyId });
    expect(payload).toMatchObject({ iss: standIns.apple.key.issuerId, aud: 'appstoreconnect-v1' });
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(20 * 60);
  });

  it('reads every review across pages, with its response', async () => {
    const reviews = await listConnectReviews(standIns.apple.key, '1459969523');
    expect(reviews).toHaveLength(5);
    expect(reviews[1]).toMatchObject({ rating: 4, response: { body: 'Thank you!', state: 'PUBLISHED' } });
    expect(reviews[0]!.response).toBeNull();
  });

  it('writes a response once, and deletes it', async () => {
    const review = standIns.apple.apps[0]!.reviews[0]!;
    const written = await respondToReview(standIns.apple.key, review.id, 'Glad it helps you sleep.');
    expect(written.state).toBe('PENDING_PUBLISH');
    expect(standIns.apple.received).toEqual([{ reviewId: review.id, responseBody: 'Glad it helps you sleep.' }]);
    await deleteReviewResponse(standIns.apple.key, written.id);
    expect((await listConnectReviews(standIns.apple.key, '1459969523'))[0]!.response).toBeNull();
  });

  it('says what is wrong: a bad .p8, a review deleted at the store, the store’s rate, a revoked key', async () => {
    expect((await refusal(listConnectApps({ ...standIns.apple.key, privateKey: 'not a key' }))).kind).toBe(
      'invalid-credential',
    );
    expect((await refusal(respondToReview(standIns.apple.key, 'gone', 'Hello'))).kind).toBe('not-found');
    standIns.apple.throttle(1);
    const throttled = await refusal(listConnectApps(standIns.apple.key));
    expect(throttled).toMatchObject({ kind: 'rate-limited', retryAfterSeconds: 1 });
    expect(throttled.retryable).toBe(true);
    // A token of another key (its own, valid .p8) is refused as the store refuses it.
    const { privateKey } = await import('jose').then(({ generateKeyPair, exportPKCS8 }) =>
      generateKeyPair('ES256', { extractable: true }).then(async (pair) => ({
        privateKey: await exportPKCS8(pair.privateKey),
      })),
    );
    expect((await refusal(listConnectApps({ ...standIns.apple.key, privateKey }))).kind).toBe('credential-refused');
  });
});

describe('Google Play Console', () => {
  it('asks the token at the key’s token_uri, and reads every review across pages with its reply', async () => {
    const key = parseServiceAccountKey(standIns.google.keyJson);
    expect(key.token_uri).toBe(`${standIns.google.origin}/token`);
    expect(await playAccessToken(key)).toMatch(/^ya29\./);
    const reviews = await listPlayReviews(key, 'com.calmlabs.breathe');
    expect(reviews).toHaveLength(3);
    expect(reviews[0]).toMatchObject({
      id: 'gp:AOqpTO0',
      text: 'Review 0 of the app',
      reply: { text: 'Thanks for playing!' },
    });
    expect(reviews[2]!.reply).toBeNull();
  });

  it('replies once, and refuses a reply too long or to a review that is gone', async () => {
    const key = parseServiceAccountKey(standIns.google.keyJson);
    const reply = await replyToPlayReview(key, 'com.calmlabs.breathe', 'gp:AOqpTO2', 'Thank you for the stars.');
    expect(reply.text).toBe('Thank you for the stars.');
    expect(standIns.google.received).toEqual([
      { packageName: 'com.calmlabs.breathe', reviewId: 'gp:AOqpTO2', replyText: 'Thank you for the stars.' },
    ]);
    expect((await refusal(replyToPlayReview(key, 'com.calmlabs.breathe', 'gp:AOqpTO2', 'x'.repeat(351)))).kind).toBe(
      'refused',
    );
    expect((await refusal(replyToPlayReview(key, 'com.calmlabs.breathe', 'gp:gone', 'Hi'))).kind).toBe('not-found');
    expect((await refusal(listPlayReviews(key, 'com.other.app'))).kind).toBe('credential-refused');
  });

  it('refuses a key that is no service account key, one whose token_uri is inside the network, and a disabled one', async () => {
    expect((await refusal(Promise.resolve().then(() => parseServiceAccountKey('{')))).kind).toBe('invalid-credential');
    expect(
      (await refusal(Promise.resolve().then(() => parseServiceAccountKey(JSON.stringify({ type: 'user' }))))).message,
    ).toMatch(/service account/);
    const inside = { ...parseServiceAccountKey(standIns.google.keyJson), token_uri: 'https://10.0.0.7/token' };
    expect((await refusal(playAccessToken(inside))).kind).toBe('invalid-credential');
    standIns.google.disable();
    expect(
      (await refusal(listPlayReviews(parseServiceAccountKey(standIns.google.keyJson), 'com.calmlabs.breathe'))).kind,
    ).toBe('credential-refused');
  });
});
