// The reviews of the apps an account owns, read with its connected store accounts and kept (issue 67): App Store
// Connect lists every review an app has, Google Play the week's, so each connected account is read every day and what
// it gave is kept, its history whole whatever the store shows later. A review's answer is kept as the store holds it.
// A store that refuses the credential marks the store account (`lastError`) and keeps what was read before; a store
// that fails leaves everything as it was, for the next run.
import { db } from '@/server/db';
import { logError } from '@/server/core/log';
import { type AppStoreConnectKey, listConnectReviews } from './app-store-connect';
import { listPlayReviews, type ServiceAccountKey } from './google-play-console';
import { StoreAccountError } from './store-account-errors';
import { storeAccountCredential } from './store-accounts';

interface ReadReview {
  storeReviewId: string;
  rating: number;
  title: string | null;
  body: string | null;
  author: string | null;
  territory: string | null;
  appVersion: string | null;
  writtenAt: Date;
  response: { body: string; id: string | null; state: string | null; updatedAt: Date | null } | null;
}

/** What one run did: the reviews read (new or changed kept), and each store account the store refused. */
export interface CollectionSummary {
  read: number;
  added: number;
  refused: { store: string; reason: string }[];
}

async function readReviews(
  store: 'app_store' | 'google_play',
  credential: AppStoreConnectKey | ServiceAccountKey,
  storeId: string,
): Promise<ReadReview[]> {
  if (store === 'app_store')
    return (await listConnectReviews(credential as AppStoreConnectKey, storeId)).map((review) => ({
      storeReviewId: review.id,
      rating: review.rating,
      title: review.title,
      body: review.body,
      author: review.reviewerNickname,
      territory: review.territory,
      appVersion: null,
      writtenAt: new Date(review.createdAt),
      response: review.response && {
        body: review.response.body,
        id: review.response.id,
        state: review.response.state,
        updatedAt: review.response.lastModifiedAt ? new Date(review.response.lastModifiedAt) : null,
      },
    }));
  return (await listPlayReviews(credential as ServiceAccountKey, storeId)).map((review) => ({
    storeReviewId: review.id,
    rating: review.rating,
    title: null,
    body: review.text,
    author: review.authorName,
    territory: review.language,
    appVersion: review.appVersion,
    writtenAt: new Date(review.lastModifiedAt),
    response: review.reply && {
      body: review.reply.text,
      id: null,
      state: 'PUBLISHED',
      updatedAt: new Date(review.reply.lastModifiedAt),
    },
  }));
}

/** Reads every owned app's reviews of the account's store accounts, and keeps them. */
export async function collectOwnedReviews(accountId: string, now: Date): Promise<CollectionSummary> {
  const summary: CollectionSummary = { read: 0, added: 0, refused: [] };
  const accounts = await db.storeAccount.findMany({
    where: { accountId },
    select: { id: true, store: true, ownedApps: { select: { id: true, storeId: true } } },
  });
  for (const account of accounts) {
    const store = account.store as 'app_store' | 'google_play';
    const credential = await storeAccountCredential(accountId, store);
    if (!credential) continue;
    try {
      for (const app of account.ownedApps) {
        const reviews = await readReviews(store, credential, app.storeId);
        summary.read += reviews.length;
        const known = new Set(
          (
            await db.storeAccountReview.findMany({
              where: { trackedAppId: app.id, storeReviewId: { in: reviews.map((review) => review.storeReviewId) } },
              select: { storeReviewId: true },
            })
          ).map((row) => row.storeReviewId),
        );
        for (const review of reviews) {
          const fields = {
            rating: review.rating,
            title: review.title,
            body: review.body,
            author: review.author,
            territory: review.territory,
            appVersion: review.appVersion,
            writtenAt: review.writtenAt,
            responseBody: review.response?.body ?? null,
            responseId: review.response?.id ?? null,
            responseState: review.response?.state ?? null,
            responseUpdatedAt: review.response?.updatedAt ?? null,
            lastSeenAt: now,
          };
          await db.storeAccountReview.upsert({
            where: { trackedAppId_storeReviewId: { trackedAppId: app.id, storeReviewId: review.storeReviewId } },
            create: {
              accountId,
              trackedAppId: app.id,
              storeReviewId: review.storeReviewId,
              firstSeenAt: now,
              ...fields,
            },
            update: fields,
          });
          if (!known.has(review.storeReviewId)) summary.added++;
        }
      }
      await db.storeAccount.update({ where: { id: account.id }, data: { lastCheckedAt: now, lastError: null } });
    } catch (error) {
      if (!(error instanceof StoreAccountError)) throw error;
      if (error.kind === 'credential-refused' || error.kind === 'invalid-credential') {
        summary.refused.push({ store, reason: error.message });
        await db.storeAccount.update({ where: { id: account.id }, data: { lastError: error.message } });
      } else logError('a store account’s reviews could not be read; the next run tries again', error, { store });
    }
  }
  return summary;
}
