// Replies to the reviews of owned apps (issue 67), against the stores' stand-ins: drafted by a key, approved by a
// member, sent once whatever happens in between (a retry after the store's 503, a process that died mid-send), the
// store's refusals as clear problems, each state an event and a security-log entry; a sandbox's simulated store.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { listReviews } from '@/server/services/aso/reviews';
import { makeAccount } from '../../../../test/factories';
import { useStoreStandIns } from '../../../../test/stores/store-stand-ins';
import { respondToReview } from './app-store-connect';
import { collectOwnedReviews } from './owned-reviews';
import { approveReplyDraft, discardReplyDraft, draftReply, getReplyDraft } from './reply-drafts';
import { sendDueReplies } from './reply-sender';
import { connectStoreAccount } from './store-accounts';

const standIns = useStoreStandIns();

/** An account owning the stand-ins' Breathe on both stores, with their reviews read, and a key of the account. */
async function ownerWithReviews() {
  const owner = await makeAccount('pro');
  const app = (store: 'app_store' | 'google_play', storeId: string) =>
    db.trackedApp.create({
      data: {
        accountId: owner.accountId,
        store,
        storeId,
        bundleId: 'com.calmlabs.breathe',
        name: `Breathe (${store})`,
        developer: 'Calm Labs Inc.',
        category: 'Health & Fitness',
        primaryCountry: 'US',
      },
    });
  const ios = await app('app_store', '1459969523');
  const android = await app('google_play', 'com.calmlabs.breathe');
  await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, new Date());
  await connectStoreAccount(owner, { store: 'google_play', serviceAccountKey: standIns.google.keyJson }, new Date());
  await collectOwnedReviews(owner.accountId, new Date());
  const key = await db.apiKey.create({
    data: {
      accountId: owner.accountId,
      name: 'Support agent',
      scope: 'read_write',
      displayPrefix: 'svc_live_ag3n',
      lastFour: 'ag3n',
      secretHash: randomBytes(32),
    },
  });
  const agent = { accountId: owner.accountId, kind: 'apiKey' as const, keyId: key.id };
  return { owner, ios, android, agent };
}

async function storeReview(appId: string, storeReviewId: string) {
  return db.storeAccountReview.findFirstOrThrow({ where: { trackedAppId: appId, storeReviewId } });
}

/** Runs the sender until it takes nothing more now. */
async function sendAll() {
  while ((await sendDueReplies()) > 0) {
    // another pass
  }
}

const appleReview = (index: number) => `00000042-0001-0000-0000-00000000000${index}`;

describe('reply drafts', () => {
  it('lists every owned review with its answer, per store, beside the public ones', async () => {
    const { owner, ios, android } = await ownerWithReviews();
    const base = { page: 1, pageSize: 20, sort: 'newest' as const, source: 'store_account' as const };
    const apple = await listReviews(owner.accountId, { ...base, appId: ios.id });
    expect(apple.total).toBe(5);
    expect(apple.items[1]).toMatchObject({
      source: 'store_account',
      storeReviewId: appleReview(1),
      country: 'US',
      language: null,
      response: { body: 'Thank you!', state: 'PUBLISHED' },
      replyDraft: null,
    });
    const google = await listReviews(owner.accountId, { ...base, appId: android.id });
    expect(google.total).toBe(3);
    expect(google.items[0]).toMatchObject({ country: null, language: 'en', response: { body: 'Thanks for playing!' } });
    const publicReviews = await listReviews(owner.accountId, { ...base, source: 'public', appId: ios.id });
    expect(publicReviews.items.every((item) => item.source === 'public')).toBe(true);
    // An app no store account owns says how to own it.
    const other = await db.trackedApp.create({
      data: { ...ios, id: undefined, storeId: '42', storeAppId: undefined, ownedByStoreAccountId: null },
    });
    await expect(listReviews(owner.accountId, { ...base, appId: other.id })).rejects.toMatchObject({
      appCode: 'CONFLICT',
    });
  });

  it('sends an approved reply once, and records each state', async () => {
    const { owner, ios, agent } = await ownerWithReviews();
    const review = await storeReview(ios.id, appleReview(0));
    const draft = await draftReply(agent, { appId: ios.id, reviewId: review.id, action: 'reply', body: 'Thank you!' });
    expect(draft).toMatchObject({ state: 'drafted', draftedBy: 'API key “Support agent” (svc_live_ag3n…)' });
    // Nothing is sent before a member approves it.
    await sendAll();
    expect(standIns.apple.received.filter((each) => each.reviewId === appleReview(0))).toHaveLength(0);

    const approved = await approveReplyDraft(owner, { appId: ios.id, draftId: draft.id }, new Date());
    expect(approved).toMatchObject({ state: 'approved', approvedBy: owner.email });
    await sendAll();
    await sendAll();
    expect(standIns.apple.received.filter((each) => each.reviewId === appleReview(0))).toEqual([
      { reviewId: appleReview(0), responseBody: 'Thank you!' },
    ]);
    expect(await getReplyDraft(owner.accountId, { appId: ios.id, draftId: draft.id })).toMatchObject({
      state: 'sent',
      attempts: 1,
      problem: null,
    });
    expect(await storeReview(ios.id, appleReview(0))).toMatchObject({
      responseBody: 'Thank you!',
      responseState: 'PENDING_PUBLISH',
    });
    const events = await db.domainEvent.findMany({
      where: { accountId: owner.accountId, type: { startsWith: 'review_reply.' } },
      orderBy: { occurredAt: 'asc' },
    });
    expect(events.map((event) => event.type)).toEqual([
      'review_reply.drafted',
      'review_reply.approved',
      'review_reply.sent',
    ]);
    expect(events[2]!.data).toMatchObject({ draftId: draft.id, reviewId: review.id, body: 'Thank you!' });
    const log = await db.securityEvent.findMany({
      where: { accountId: owner.accountId, kind: { startsWith: 'review_reply.' } },
      orderBy: { id: 'asc' },
    });
    expect(log.map((entry) => [entry.kind, entry.targetLabel])).toEqual([
      ['review_reply.drafted', 'Reply to the review by reviewer0'],
      ['review_reply.approved', 'Reply to the review by reviewer0'],
      ['review_reply.sent', 'Reply to the review by reviewer0'],
    ]);
    // Approving again is a conflict that says why, and sends nothing.
    await expect(approveReplyDraft(owner, { appId: ios.id, draftId: draft.id }, new Date())).rejects.toMatchObject({
      appCode: 'CONFLICT',
      message: 'This draft was sent: only a drafted reply can be approved.',
    });
  });

  it('retries the store’s 503 later, and settles a send that died midway with the store’s answer', async () => {
    const { owner, ios, agent } = await ownerWithReviews();
    const review = await storeReview(ios.id, appleReview(2));
    const draft = await draftReply(agent, { appId: ios.id, reviewId: review.id, action: 'reply', body: 'On it!' });
    await approveReplyDraft(owner, { appId: ios.id, draftId: draft.id }, new Date());
    standIns.apple.fail(1);
    await sendAll();
    const waiting = await getReplyDraft(owner.accountId, { appId: ios.id, draftId: draft.id });
    expect(waiting).toMatchObject({ state: 'approved', attempts: 1 });
    expect(waiting.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now() + 20_000);
    expect(waiting.problem).toContain('unavailable');
    // Its time comes: sent, once.
    await db.replyDraft.update({ where: { id: draft.id }, data: { nextAttemptAt: new Date(Date.now() - 1000) } });
    await sendAll();
    expect(await getReplyDraft(owner.accountId, { appId: ios.id, draftId: draft.id })).toMatchObject({
      state: 'sent',
      attempts: 2,
    });
    expect(standIns.apple.received.filter((each) => each.reviewId === appleReview(2))).toHaveLength(1);

    // A process that asked the store and died before it wrote down the answer: the draft is left `sending`. Once
    // stale, the store's own answer settles it, and nothing is sent again.
    const next = await storeReview(ios.id, appleReview(3));
    const second = await draftReply(agent, {
      appId: ios.id,
      reviewId: next.id,
      action: 'reply',
      body: 'Fixed in 4.3.',
    });
    await approveReplyDraft(owner, { appId: ios.id, draftId: second.id }, new Date());
    await respondToReview(standIns.apple.key, appleReview(3), 'Fixed in 4.3.');
    await db.replyDraft.update({
      where: { id: second.id },
      data: { state: 'sending', attempts: 1, sendingSince: new Date(Date.now() - 10 * 60_000) },
    });
    await sendAll();
    expect(await getReplyDraft(owner.accountId, { appId: ios.id, draftId: second.id })).toMatchObject({
      state: 'sent',
    });
    expect(standIns.apple.received.filter((each) => each.reviewId === appleReview(3))).toHaveLength(1);
  });

  it('ends a reply the store refuses with a clear problem: a revoked key, a deleted review', async () => {
    const { owner, ios, android, agent } = await ownerWithReviews();
    const review = await storeReview(ios.id, appleReview(4));
    const draft = await draftReply(agent, { appId: ios.id, reviewId: review.id, action: 'reply', body: 'Hello' });
    await approveReplyDraft(owner, { appId: ios.id, draftId: draft.id }, new Date());
    standIns.apple.revoke();
    try {
      await sendAll();
    } finally {
      standIns.apple.restore();
    }
    const failed = await getReplyDraft(owner.accountId, { appId: ios.id, draftId: draft.id });
    expect(failed).toMatchObject({ state: 'failed' });
    expect(failed.problem).toMatch(/refused the key .*Replace the key in Settings → Store accounts/);
    expect(
      (await db.storeAccount.findFirstOrThrow({ where: { accountId: owner.accountId, store: 'app_store' } })).lastError,
    ).toBe(failed.problem);
    expect(await storeReview(ios.id, appleReview(4))).toMatchObject({ responseBody: null });

    const gone = (await storeReview(android.id, 'gp:AOqpTO2')).id;
    const reply = await draftReply(agent, { appId: android.id, reviewId: gone, action: 'reply', body: 'Thanks' });
    await approveReplyDraft(owner, { appId: android.id, draftId: reply.id }, new Date());
    standIns.google.deleteReview('gp:AOqpTO2');
    await sendAll();
    expect(await getReplyDraft(owner.accountId, { appId: android.id, draftId: reply.id })).toMatchObject({
      state: 'rejected',
      problem: 'Google Play no longer has this review (its author deleted it), so it takes no answer.',
    });
    const events = await db.domainEvent.findMany({
      where: { accountId: owner.accountId, type: { in: ['review_reply.failed', 'review_reply.rejected'] } },
    });
    expect(events.map((event) => event.type).sort()).toEqual(['review_reply.failed', 'review_reply.rejected']);
  });

  it('refuses what no store takes before anything is stored, and keeps one live draft a review', async () => {
    const { owner, ios, android, agent } = await ownerWithReviews();
    const playReview = (await storeReview(android.id, 'gp:AOqpTO1')).id;
    const tooLong = draftReply(agent, {
      appId: android.id,
      reviewId: playReview,
      action: 'reply',
      body: 'x'.repeat(351),
    });
    await expect(tooLong).rejects.toMatchObject({
      appCode: 'VALIDATION_ERROR',
      message: 'Google Play takes answers of at most 350 characters; this one has 351.',
    });
    await expect(
      draftReply(agent, { appId: android.id, reviewId: playReview, action: 'delete' }),
    ).rejects.toBeInstanceOf(AppError);
    expect(await db.replyDraft.count({ where: { accountId: owner.accountId } })).toBe(0);

    const review = (await storeReview(ios.id, appleReview(1))).id;
    const first = await draftReply(agent, { appId: ios.id, reviewId: review, action: 'reply', body: 'One' });
    const second = await draftReply(agent, { appId: ios.id, reviewId: review, action: 'delete' });
    expect(await getReplyDraft(owner.accountId, { appId: ios.id, draftId: first.id })).toMatchObject({
      state: 'superseded',
    });
    await approveReplyDraft(owner, { appId: ios.id, draftId: second.id }, new Date());
    await expect(
      draftReply(agent, { appId: ios.id, reviewId: review, action: 'reply', body: 'Three' }),
    ).rejects.toMatchObject({ appCode: 'CONFLICT' });
    await expect(discardReplyDraft(owner, { appId: ios.id, draftId: first.id }, new Date())).rejects.toMatchObject({
      appCode: 'CONFLICT',
    });
    await sendAll();
    // The deletion went to the store: the review has no answer there, nor here.
    expect(await storeReview(ios.id, appleReview(1))).toMatchObject({ responseBody: null, responseId: null });
    expect(standIns.apple.apps[0]!.reviews.find((each) => each.id === appleReview(1))?.response).toBeUndefined();
  });

  it('answers a sandbox’s simulated reviews at once, or as the test trigger chose', async () => {
    const live = await makeAccount('pro');
    const sandboxId = await sandboxOf(live.accountId);
    const app = await db.trackedApp.findFirstOrThrow({ where: { accountId: sandboxId, store: 'app_store' } });
    const reviews = await listReviews(sandboxId, {
      appId: app.id,
      page: 1,
      pageSize: 20,
      sort: 'newest',
      source: 'store_account',
    });
    expect(reviews.total).toBe(6);
    const [first, second] = reviews.items;
    const tester = { accountId: sandboxId, kind: 'session' as const, userId: live.userId };
    const sent = await draftReply(tester, { appId: app.id, reviewId: first!.id, action: 'reply', body: 'Thanks!' });
    expect(
      await approveReplyDraft(
        { accountId: sandboxId, userId: live.userId },
        { appId: app.id, draftId: sent.id },
        new Date(),
      ),
    ).toMatchObject({ state: 'sent' });
    const refused = await draftReply(
      tester,
      { appId: app.id, reviewId: second!.id, action: 'reply', body: 'Thanks!' },
      { simulatedOutcome: 'review-deleted' },
    );
    expect(
      await approveReplyDraft(
        { accountId: sandboxId, userId: live.userId },
        { appId: app.id, draftId: refused.id },
        new Date(),
      ),
    ).toMatchObject({ state: 'rejected', problem: expect.stringContaining('no longer has this review') });
  });
});
