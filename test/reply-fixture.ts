// Reviews of an owned app and reply drafts of them, for the tests that call every operation (the security matrix, the
// conformance sweep): the app is owned through a simulated store account (no store needed), `reviewId` is a review to
// draft a reply to, `draftId` a drafted reply. `redraft` puts that draft back to drafted, for a call that approves or
// discards it (each call of the matrices' must find it as the first one did).
import { db } from '@/server/db';
import { draftReply } from '@/server/services/store-accounts/reply-drafts';
import { addSimulatedStoreAccounts } from '@/server/services/store-accounts/simulated-store-account';

export interface ReplyFixture {
  reviewId: string;
  draftId: string;
  redraft: () => Promise<void>;
}

/** For an app (of a live account, or of a sandbox, whose sample apps are owned already). */
export async function replyFixture(
  owner: { accountId: string; userId: string },
  appId: string,
  store: 'app_store' | 'google_play' = 'app_store',
): Promise<ReplyFixture> {
  const owned = await db.trackedApp.findUniqueOrThrow({
    where: { id: appId },
    select: { ownedByStoreAccountId: true },
  });
  if (!owned.ownedByStoreAccountId)
    await db.$transaction((tx) => addSimulatedStoreAccounts(tx, owner.accountId, [{ id: appId, store }]));
  const reviews = await db.storeAccountReview.findMany({
    where: { trackedAppId: appId },
    orderBy: { storeReviewId: 'asc' },
    select: { id: true },
  });
  const member = { accountId: owner.accountId, kind: 'session' as const, userId: owner.userId };
  const draft = await draftReply(member, {
    appId,
    reviewId: reviews[1]!.id,
    action: 'reply',
    body: 'Thank you for the review!',
  });
  return {
    reviewId: reviews[0]!.id,
    draftId: draft.id,
    redraft: async () => {
      await db.replyDraft.update({
        where: { id: draft.id },
        data: { state: 'drafted', approvedAt: null, approvedBy: null, approvedByUserId: null, sentAt: null },
      });
    },
  };
}
