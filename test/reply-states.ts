// Takes replies to an app's reviews through every state a draft has (drafted, approved, sent, discarded, failed,
// rejected), through a simulated store account owning the app: for the tests that check every kind of event and
// security-log entry is recorded, without a store.
import { db } from '@/server/db';
import { approveReplyDraft, discardReplyDraft, draftReply } from '@/server/services/store-accounts/reply-drafts';
import { addSimulatedStoreAccounts } from '@/server/services/store-accounts/simulated-store-account';

export async function answerEveryWay(owner: { accountId: string; userId: string }, appId: string): Promise<void> {
  await db.$transaction((tx) => addSimulatedStoreAccounts(tx, owner.accountId, [{ id: appId, store: 'app_store' }]));
  const reviews = await db.storeAccountReview.findMany({
    where: { trackedAppId: appId },
    orderBy: { storeReviewId: 'asc' },
  });
  const member = { accountId: owner.accountId, kind: 'session' as const, userId: owner.userId };
  const draft = (index: number, simulatedOutcome?: 'review-deleted' | 'credential-revoked') =>
    draftReply(
      member,
      { appId, reviewId: reviews[index]!.id, action: 'reply', body: 'Thank you!' },
      { simulatedOutcome },
    );
  const approve = (draftId: string) => approveReplyDraft(owner, { appId, draftId }, new Date());
  await approve((await draft(0)).id);
  await approve((await draft(1, 'review-deleted')).id);
  await approve((await draft(2, 'credential-revoked')).id);
  await discardReplyDraft(owner, { appId, draftId: (await draft(3)).id }, new Date());
}
