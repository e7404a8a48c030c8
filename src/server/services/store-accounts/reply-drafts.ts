// Replies to the reviews of an owned app, with a person in the loop (issue 67; docs/api-decisions.md, "Replies to
// reviews"): any credential that may write drafts one (a key, an agent, a member), a member whose role allows it
// (`replies.approve`) approves it, and only then is it sent to the store, by the sender (./reply-sender.ts), once.
// Deleting the answer a review has goes the same way. Each state is a webhook event and a security-log entry.
// A sandbox's store account is simulated: an approved reply is "sent" at once, or refused as X-Test-Trigger chose.
import type { Prisma } from '@/generated/prisma/client';
import { db } from '@/server/db';
import { lockStoreAccountReview } from '@/server/db/reply-statements';
import { AppError } from '@/server/errors/app-error';
import { freshnessOf, loadApp } from '@/server/services/aso/app-context';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { draftEventData, draftTarget, type ReplyAction, type SimulatedOutcome } from './reply-records';
import { settleSimulatedReply } from './reply-sender';

export const REPLY_DRAFT_STATES = [
  'drafted',
  'approved',
  'sending',
  'sent',
  'failed',
  'rejected',
  'discarded',
  'superseded',
] as const;
export type ReplyDraftState = (typeof REPLY_DRAFT_STATES)[number];

/** The longest answer each store takes: Apple's response body, Google's reply ("about 350 characters"). */
export const REPLY_LIMITS = { app_store: 5970, google_play: 350 } as const;

/** Who drafts: the credential of the call, as the draft names it. */
export interface DraftingActor {
  accountId: string;
  kind: 'apiKey' | 'session';
  keyId?: string;
  userId?: string;
}

/** Who approves or discards: a signed-in member (the role was checked by the access policy). */
export interface ApprovingActor {
  accountId: string;
  userId: string;
}

export interface ReplyDraftView {
  id: string;
  appId: string;
  reviewId: string;
  /** What the review is, for whoever approves the reply without it beside them. */
  review: { rating: number; title: string | null; author: string | null };
  action: ReplyAction;
  body: string | null;
  state: ReplyDraftState;
  draftedBy: string;
  approvedBy: string | null;
  approvedAt: Date | null;
  sentAt: Date | null;
  attempts: number;
  nextAttemptAt: Date | null;
  problem: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const LIVE_STATES: ReplyDraftState[] = ['drafted', 'approved', 'sending'];

const DRAFT_SELECT = {
  id: true,
  action: true,
  body: true,
  state: true,
  draftedBy: true,
  approvedBy: true,
  approvedAt: true,
  sentAt: true,
  attempts: true,
  nextAttemptAt: true,
  problem: true,
  createdAt: true,
  updatedAt: true,
  reviewId: true,
  review: { select: { trackedAppId: true, rating: true, title: true, author: true } },
} satisfies Prisma.ReplyDraftSelect;

type DraftRow = Prisma.ReplyDraftGetPayload<{ select: typeof DRAFT_SELECT }>;

function viewOf({ review: { trackedAppId, ...review }, ...row }: DraftRow): ReplyDraftView {
  return {
    ...row,
    review,
    appId: trackedAppId,
    action: row.action as ReplyAction,
    state: row.state as ReplyDraftState,
  };
}

/** The credential's name as a person reads it in the draft and the security log. */
async function drafterLabel(actor: DraftingActor): Promise<string> {
  if (actor.kind === 'session' && actor.userId) {
    const user = await db.user.findUnique({ where: { id: actor.userId }, select: { email: true } });
    return user?.email ?? 'A member';
  }
  const key = actor.keyId
    ? await db.apiKey.findUnique({
        where: { id: actor.keyId },
        select: { kind: true, name: true, displayPrefix: true },
      })
    : null;
  if (!key) return 'An API key';
  return key.kind === 'oauth_grant' ? `Connected app “${key.name}”` : `API key “${key.name}” (${key.displayPrefix}…)`;
}

const NO_SUCH_REVIEW =
  'No review of this app with this id was read with your store account: only reviews listed with `source=store_account` can be answered.';
const NO_SUCH_DRAFT = 'No reply draft of this app has this id.';

/**
 * Drafts a reply to a review of an owned app (or the deletion of its answer). A draft still waiting for approval is
 * superseded by the new one; while one is approved or being sent, another waits (409).
 */
export async function draftReply(
  actor: DraftingActor,
  input: { appId: string; reviewId: string; action: ReplyAction; body?: string },
  options: { simulatedOutcome?: SimulatedOutcome } = {},
): Promise<ReplyDraftView> {
  const app = await loadApp(actor.accountId, input.appId);
  const review = await db.storeAccountReview.findFirst({
    where: { id: input.reviewId, trackedAppId: app.id, accountId: actor.accountId },
    select: {
      id: true,
      author: true,
      responseBody: true,
      trackedApp: { select: { store: true, ownedBy: { select: { id: true, simulated: true } } } },
    },
  });
  if (!review) throw new AppError('NOT_FOUND', NO_SUCH_REVIEW);
  const store = review.trackedApp.store;
  if (!review.trackedApp.ownedBy)
    throw new AppError(
      'CONFLICT',
      'The app’s store account is no longer connected: connect it again in Settings → Store accounts to answer its reviews.',
    );
  const body = input.action === 'reply' ? (input.body ?? '').trim() : null;
  const refuse = (detail: string) =>
    new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'body', pointer: '#/body', detail }] });
  if (input.action === 'reply') {
    if (!body) throw refuse('A reply needs its text (body).');
    if (body.length > REPLY_LIMITS[store])
      throw refuse(
        `${store === 'app_store' ? 'The App Store' : 'Google Play'} takes answers of at most ${REPLY_LIMITS[store]} characters; this one has ${body.length}.`,
      );
  } else {
    if (input.body !== undefined) throw refuse('A deletion takes no body.');
    if (store === 'google_play')
      throw new AppError(
        'CONFLICT',
        'Google Play’s API cannot delete an answer: draft a new reply to replace it, or delete it in Play Console.',
      );
    if (review.responseBody === null) throw new AppError('CONFLICT', 'This review has no answer to delete.');
  }
  const drafter = await drafterLabel(actor);
  const simulatedOutcome = review.trackedApp.ownedBy.simulated ? (options.simulatedOutcome ?? null) : null;
  const draft = await db.$transaction(async (tx) => {
    if (!(await lockStoreAccountReview(tx, review.id))) throw new AppError('NOT_FOUND', NO_SUCH_REVIEW);
    const live = await tx.replyDraft.findFirst({
      where: { reviewId: review.id, state: { in: LIVE_STATES } },
      select: { id: true, state: true },
    });
    if (live && live.state !== 'drafted')
      throw new AppError(
        'CONFLICT',
        `A reply to this review was approved and is being sent (draft ${live.id}): draft again once it is sent.`,
      );
    if (live)
      await tx.replyDraft.update({
        where: { id: live.id },
        data: { state: 'superseded', updatedAt: new Date() },
      });
    const created = viewOf(
      await tx.replyDraft.create({
        data: {
          accountId: actor.accountId,
          reviewId: review.id,
          action: input.action,
          body,
          state: 'drafted',
          draftedBy: drafter,
          simulatedOutcome,
        },
        select: DRAFT_SELECT,
      }),
    );
    await recordEvents(
      [{ accountId: actor.accountId, type: 'review_reply.drafted', appId: app.id, data: draftEventData(created) }],
      tx,
    );
    await recordSecurityEvent(
      {
        accountId: actor.accountId,
        kind: 'review_reply.drafted',
        target: draftTarget(created, review.author),
        after: { action: created.action, body: created.body, ...(live && { supersedes: live.id }) },
      },
      tx,
    );
    return created;
  });
  return draft;
}

/** The app's reply drafts, newest first, optionally of one state. */
export async function listReplyDrafts(
  accountId: string,
  input: { appId: string; state?: ReplyDraftState; page: number; pageSize: number },
) {
  const app = await loadApp(accountId, input.appId);
  const where: Prisma.ReplyDraftWhereInput = {
    accountId,
    review: { trackedAppId: app.id },
    ...(input.state && { state: input.state }),
  };
  const [total, rows] = await Promise.all([
    db.replyDraft.count({ where }),
    db.replyDraft.findMany({
      where,
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
      select: DRAFT_SELECT,
    }),
  ]);
  return {
    freshness: freshnessOf(app, null, ['storeAccountReviews']),
    items: rows.map(viewOf),
    page: input.page,
    pageSize: input.pageSize,
    total,
    totalPages: Math.ceil(total / input.pageSize),
  };
}

/** One draft of the app's, or 404. */
export async function getReplyDraft(accountId: string, input: { appId: string; draftId: string }) {
  return (await readReplyDraft(accountId, input)).draft;
}

/** One draft of the app's with the app's freshness (what a read about one app says of it), or 404. */
export async function readReplyDraft(accountId: string, input: { appId: string; draftId: string }) {
  const app = await loadApp(accountId, input.appId);
  const row = await db.replyDraft.findFirst({
    where: { id: input.draftId, accountId, review: { trackedAppId: app.id } },
    select: DRAFT_SELECT,
  });
  if (!row) throw new AppError('NOT_FOUND', NO_SUCH_DRAFT);
  return { draft: viewOf(row), freshness: freshnessOf(app, null, ['storeAccountReviews']) };
}

/** Why a draft in `state` cannot be approved or discarded, in the words of the refusal. */
function notDrafted(state: string, verb: 'approved' | 'discarded'): AppError {
  const now: Record<string, string> = {
    approved: 'was approved already',
    sending: 'is being sent',
    sent: 'was sent',
    failed: 'could not be sent',
    rejected: 'was refused by the store',
    discarded: 'was discarded',
    superseded: 'was replaced by a newer draft',
  };
  return new AppError('CONFLICT', `This draft ${now[state] ?? `is ${state}`}: only a drafted reply can be ${verb}.`);
}

/**
 * Approves a drafted reply: from then on the sender sends it (a simulated store account's at once, in this call).
 * A member's act: the access policy admits only a session of a member whose role allows `replies.approve`.
 */
export async function approveReplyDraft(
  actor: ApprovingActor,
  input: { appId: string; draftId: string },
  now: Date,
): Promise<ReplyDraftView> {
  const draft = await getReplyDraft(actor.accountId, input);
  const approver = await db.user.findUnique({ where: { id: actor.userId }, select: { email: true } });
  const simulated = await db.$transaction(async (tx) => {
    const { count } = await tx.replyDraft.updateMany({
      where: { id: draft.id, state: 'drafted' },
      data: {
        state: 'approved',
        approvedByUserId: actor.userId,
        approvedBy: approver?.email ?? 'A member',
        approvedAt: now,
        nextAttemptAt: now,
        updatedAt: now,
      },
    });
    if (!count) {
      const current = await tx.replyDraft.findUnique({ where: { id: draft.id }, select: { state: true } });
      throw notDrafted(current?.state ?? draft.state, 'approved');
    }
    const row = await tx.replyDraft.findUniqueOrThrow({
      where: { id: draft.id },
      select: {
        review: { select: { author: true, trackedApp: { select: { ownedBy: { select: { simulated: true } } } } } },
      },
    });
    await recordEvents(
      [{ accountId: actor.accountId, type: 'review_reply.approved', appId: draft.appId, data: draftEventData(draft) }],
      tx,
    );
    await recordSecurityEvent(
      {
        accountId: actor.accountId,
        kind: 'review_reply.approved',
        target: draftTarget(draft, row.review.author),
        before: { state: 'drafted' },
        after: { state: 'approved', body: draft.body },
      },
      tx,
    );
    return row.review.trackedApp.ownedBy?.simulated ?? false;
  });
  if (simulated) {
    await settleSimulatedReply(draft.id, now);
  }
  return getReplyDraft(actor.accountId, input);
}

/** Discards a draft not yet sent (drafted, or approved and not yet taken by the sender). */
export async function discardReplyDraft(
  actor: { accountId: string },
  input: { appId: string; draftId: string },
  now: Date,
): Promise<ReplyDraftView> {
  const draft = await getReplyDraft(actor.accountId, input);
  await db.$transaction(async (tx) => {
    const { count } = await tx.replyDraft.updateMany({
      where: { id: draft.id, state: { in: ['drafted', 'approved'] } },
      data: { state: 'discarded', nextAttemptAt: null, updatedAt: now },
    });
    if (!count) {
      const current = await tx.replyDraft.findUnique({ where: { id: draft.id }, select: { state: true } });
      throw notDrafted(current?.state ?? draft.state, 'discarded');
    }
    const review = await tx.storeAccountReview.findUnique({ where: { id: draft.reviewId }, select: { author: true } });
    await recordSecurityEvent(
      {
        accountId: actor.accountId,
        kind: 'review_reply.discarded',
        target: draftTarget(draft, review?.author ?? null),
        before: { state: draft.state },
        after: { state: 'discarded' },
      },
      tx,
    );
  });
  return getReplyDraft(actor.accountId, input);
}
