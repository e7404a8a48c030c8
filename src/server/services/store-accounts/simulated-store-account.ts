// Simulated store accounts (issue 67; docs/api-decisions.md, "Store accounts and replies to reviews"): a test sandbox
// owns its sample apps through one store account of each store that no store ever sees, with generated reviews of each
// app, some answered, and so does the demo account its demo apps (which no store publishes). A reply drafted there and
// approved is "sent" at once (./reply-sender.ts, settleSimulatedReply), or refused as the draft's X-Test-Trigger chose,
// so that a client can exercise every state of a reply without a store account of its own.
import type { Prisma } from '@/generated/prisma/client';
import { seal } from '@/server/core/data-encryption';
import { addDays, startOfUtcDay } from '@/server/core/dates';
import { analyseReview } from '@/server/nlp/text';

const STORE_NAMES = { app_store: 'App Store Connect', google_play: 'Google Play Console' } as const;

/** What a sample app's reviews say: who, rating, title, text, and the answer some have. */
const SAMPLE_REVIEWS: { author: string; rating: number; title: string; body: string; response?: string }[] = [
  {
    author: 'maya.r',
    rating: 5,
    title: 'Best sleep app',
    body: 'I fall asleep in minutes with the rain sounds. Worth every penny.',
  },
  {
    author: 'jonas_k',
    rating: 2,
    title: 'Crashes on launch',
    body: 'Since the last update the app crashes when I open it. Please fix.',
    response: 'Sorry about that! Version 4.2.1 fixes the crash: please update and tell us if it persists.',
  },
  {
    author: 'Priya S',
    rating: 4,
    title: 'Lovely, one wish',
    body: 'Would be great if you could add an offline mode for flights.',
  },
  {
    author: 'tbrandt',
    rating: 1,
    title: 'Charged twice',
    body: 'I was charged twice for the yearly plan and nobody answers.',
  },
  {
    author: 'sleepyhead88',
    rating: 5,
    title: 'Calm every evening',
    body: 'The breathing exercises helped my anxiety a lot.',
    response: 'Thank you for the kind words!',
  },
  { author: 'Ana L.', rating: 3, title: 'Good but pricey', body: 'Nice content, but the subscription is expensive.' },
];

/**
 * Gives the account (a sandbox, the demo account) its simulated store accounts (made once, kept across resets) and marks its apps as theirs, each
 * with the sample reviews.
 */
export async function addSimulatedStoreAccounts(
  tx: Prisma.TransactionClient,
  sandboxId: string,
  apps: { id: string; store: 'app_store' | 'google_play' }[],
  { purpose = 'test mode', now = new Date() }: { purpose?: 'test mode' | 'demo'; now?: Date } = {},
): Promise<void> {
  for (const store of ['app_store', 'google_play'] as const) {
    const owned = apps.filter((app) => app.store === store);
    if (!owned.length) continue;
    const account = await tx.storeAccount.upsert({
      where: { accountId_store: { accountId: sandboxId, store } },
      create: {
        accountId: sandboxId,
        store,
        label: `Simulated ${STORE_NAMES[store]} account (${purpose})`,
        credential: seal('{}'),
        simulated: true,
        lastCheckedAt: now,
      },
      update: {},
      select: { id: true },
    });
    await tx.trackedApp.updateMany({
      where: { id: { in: owned.map((app) => app.id) } },
      data: { ownedByStoreAccountId: account.id },
    });
    const today = startOfUtcDay(now);
    await tx.storeAccountReview.createMany({
      data: owned.flatMap((app) =>
        SAMPLE_REVIEWS.map((review, index) => ({
          accountId: sandboxId,
          trackedAppId: app.id,
          storeReviewId: `simulated-${index + 1}`,
          rating: review.rating,
          title: store === 'app_store' ? review.title : null,
          body: review.body,
          author: review.author,
          territory: store === 'app_store' ? (index % 2 ? 'GBR' : 'USA') : 'en',
          appVersion: store === 'google_play' ? '4.2.0' : null,
          sentiment: analyseReview(review.title, review.body).sentiment,
          writtenAt: addDays(today, -(index * 5 + 1)),
          responseBody: review.response ?? null,
          responseId: review.response ? `simulated-response-${index + 1}` : null,
          responseState: review.response ? 'PUBLISHED' : null,
          responseUpdatedAt: review.response ? addDays(today, -(index * 5)) : null,
          firstSeenAt: now,
          lastSeenAt: now,
        })),
      ),
      skipDuplicates: true,
    });
  }
}
