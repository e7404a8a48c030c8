// The reviews of the apps an account owns, read with its connected store accounts and kept (issue 67): App Store
// Connect lists every review an app has, Google Play the week's, so each connected account is read every day and what
// it gave is kept, its history whole whatever the store shows later. A review's answer is kept as the store holds it.
// A store that refuses the credential marks the store account (`lastError`) and keeps what was read before; a store
// that fails leaves everything as it was, for the next run.
import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { storefrontOfTerritory } from '@/server/domain/countries';
import { logError } from '@/server/core/log';
import { analyseReview } from '@/server/nlp/text';
import { type AppStoreConnectKey, listConnectReviews } from './app-store-connect';
import { listPlayReviews, type ServiceAccountKey } from './google-play-console';
import type { ReplyDraftState } from './reply-drafts';
import type { ReplyAction } from './reply-records';
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
    where: { accountId, simulated: false },
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
            sentiment: analyseReview(review.title ?? '', review.body ?? '').sentiment,
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
      // updateMany: a store account removed meanwhile is no error (its reviews stay with its apps).
      await db.storeAccount.updateMany({ where: { id: account.id }, data: { lastCheckedAt: now, lastError: null } });
    } catch (error) {
      if (!(error instanceof StoreAccountError)) throw error;
      if (error.kind === 'credential-refused' || error.kind === 'invalid-credential') {
        summary.refused.push({ store, reason: error.message });
        await db.storeAccount.updateMany({ where: { id: account.id }, data: { lastError: error.message } });
      } else logError('a store account’s reviews could not be read; the next run tries again', error, { store });
    }
  }
  return summary;
}

/** A stored owned review as the reviews list answers it (`source: store_account`). */
export interface OwnedReviewItem {
  id: string;
  source: 'store_account';
  storeReviewId: string;
  rating: number;
  title: string;
  body: string;
  author: string;
  version: string | null;
  country: string | null;
  language: string | null;
  reviewedAt: Date;
  sentiment: number;
  response: { body: string; state: string | null; updatedAt: Date | null } | null;
  replyDraft: { id: string; action: ReplyAction; state: ReplyDraftState } | null;
}

/** The app's reviews read with the account's store account, a page of them, in the order asked. */
export async function listOwnedReviews(input: {
  accountId: string;
  appId: string;
  store: 'app_store' | 'google_play';
  page: number;
  pageSize: number;
  rating?: number;
  sentiment?: Prisma.FloatFilter;
  sort: 'newest' | 'oldest' | 'highest' | 'lowest';
}): Promise<{ total: number; items: OwnedReviewItem[] }> {
  const where: Prisma.StoreAccountReviewWhereInput = {
    accountId: input.accountId,
    trackedAppId: input.appId,
    ...(input.rating && { rating: input.rating }),
    ...(input.sentiment && { sentiment: input.sentiment }),
  };
  const order: Record<typeof input.sort, Prisma.StoreAccountReviewOrderByWithRelationInput[]> = {
    newest: [{ writtenAt: 'desc' }, { id: 'asc' }],
    oldest: [{ writtenAt: 'asc' }, { id: 'asc' }],
    highest: [{ rating: 'desc' }, { writtenAt: 'desc' }, { id: 'asc' }],
    lowest: [{ rating: 'asc' }, { writtenAt: 'desc' }, { id: 'asc' }],
  };
  const [total, rows] = await Promise.all([
    db.storeAccountReview.count({ where }),
    db.storeAccountReview.findMany({
      where,
      orderBy: order[input.sort],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
      include: {
        drafts: {
          where: { state: { in: ['drafted', 'approved', 'sending'] } },
          select: { id: true, action: true, state: true },
        },
      },
    }),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      id: row.id,
      source: 'store_account',
      storeReviewId: row.storeReviewId,
      rating: row.rating,
      title: row.title ?? '',
      body: row.body ?? '',
      author: row.author ?? '',
      version: row.appVersion,
      country: input.store === 'app_store' ? storefrontOfTerritory(row.territory) : null,
      language: input.store === 'google_play' ? row.territory : null,
      reviewedAt: row.writtenAt,
      sentiment: row.sentiment,
      response:
        row.responseBody === null
          ? null
          : { body: row.responseBody, state: row.responseState, updatedAt: row.responseUpdatedAt },
      replyDraft: row.drafts[0]
        ? {
            id: row.drafts[0].id,
            action: row.drafts[0].action as ReplyAction,
            state: row.drafts[0].state as ReplyDraftState,
          }
        : null,
    })),
  };
}
