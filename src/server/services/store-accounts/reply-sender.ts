// Sends approved replies to the stores, once each (issue 67). A draft is taken and marked `sending` in one committed
// statement before the store is asked (db/reply-statements.ts, claimDueReplies), so no other process sends it; a
// process that dies while the store is asked leaves it `sending`, and once that is stale the draft is settled with the
// store's own answer first (the answer the review has now), and sent again only if the store does not have it. The
// store's 429 and 5xx are retried with backoff; its refusals end the draft with a clear problem. Run by the
// background work every second (startReplySender).
import { db } from '@/server/db';
import { claimDueReplies } from '@/server/db/reply-statements';
import { logError } from '@/server/core/log';
import { recordEvents } from '@/server/services/events/events';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import {
  type AppStoreConnectKey,
  deleteReviewResponse,
  readReviewResponse,
  respondToReview,
} from './app-store-connect';
import { readPlayReply, replyToPlayReview, type ServiceAccountKey } from './google-play-console';
import { draftEventData, draftTarget, type ReplyAction, type SimulatedOutcome } from './reply-records';
import { StoreAccountError } from './store-account-errors';
import { storeAccountCredential } from './store-accounts';
import { startPollingLoop } from '@/server/core/polling-loop';

/** Drafts one pass of the sender takes at most. */
const BATCH = 10;
/** A draft `sending` for longer belongs to a process that died while the store was asked (a call times out at 15 s). */
const STALE_SENDING_MS = 120_000;
/** The waits before each retry of a store's 429 or 5xx; past the last, the draft fails. About a day in all. */
const RETRY_DELAYS_SECONDS = [30, 120, 600, 1_800, 3_600, 3 * 3_600, 6 * 3_600, 12 * 3_600] as const;

type Settled =
  | { state: 'sent'; response: { body: string; id: string | null; state: string | null } | null }
  | { state: 'failed' | 'rejected'; problem: string; problemKind: string };

/** One pass: the due drafts sent, each settled; how many were taken. */
export async function sendDueReplies(now = new Date()): Promise<number> {
  const due = await claimDueReplies(BATCH, new Date(now.getTime() - STALE_SENDING_MS));
  for (const draft of due) {
    try {
      await sendReply(draft.id, draft.was === 'sending');
    } catch (error) {
      // Left `sending`: once stale, it is settled with the store's answer before anything is sent again.
      logError('a reply to a review could not be settled; it is taken again once stale', error, { draftId: draft.id });
    }
  }
  return due.length;
}

interface Sending {
  id: string;
  accountId: string;
  action: ReplyAction;
  body: string | null;
  attempts: number;
  simulatedOutcome: string | null;
  review: {
    id: string;
    storeReviewId: string;
    author: string | null;
    responseId: string | null;
    trackedApp: {
      id: string;
      store: 'app_store' | 'google_play';
      storeId: string;
      ownedBy: { id: string; simulated: boolean } | null;
    };
  };
}

const SENDING_SELECT = {
  id: true,
  accountId: true,
  action: true,
  body: true,
  attempts: true,
  simulatedOutcome: true,
  review: {
    select: {
      id: true,
      storeReviewId: true,
      author: true,
      responseId: true,
      trackedApp: {
        select: { id: true, store: true, storeId: true, ownedBy: { select: { id: true, simulated: true } } },
      },
    },
  },
} as const;

function readSending(draftId: string): Promise<Sending> {
  return db.replyDraft.findUniqueOrThrow({ where: { id: draftId }, select: SENDING_SELECT }) as Promise<Sending>;
}

async function sendReply(draftId: string, resumed: boolean): Promise<void> {
  const draft = await readSending(draftId);
  if (draft.review.trackedApp.ownedBy?.simulated) return settle(draft, simulatedOutcomeOf(draft));
  const app = draft.review.trackedApp;
  const credential = app.ownedBy ? await storeAccountCredential(draft.accountId, app.store) : null;
  if (!credential) {
    await settle(draft, {
      state: 'failed',
      problemKind: 'store-account-removed',
      problem: 'The app’s store account was removed before the reply was sent: connect it again, then draft anew.',
    });
    return;
  }
  try {
    const atStore = resumed ? await answerAtStore(draft, credential) : undefined;
    if (atStore !== undefined && matches(draft, atStore)) {
      await settle(draft, {
        state: 'sent',
        response: atStore && { body: atStore.body, id: atStore.id, state: atStore.state },
      });
      return;
    }
    await settle(draft, { state: 'sent', response: await write(draft, credential) });
  } catch (error) {
    if (!(error instanceof StoreAccountError)) throw error;
    if (error.retryable && draft.attempts <= RETRY_DELAYS_SECONDS.length) {
      await retryLater(draft, error);
      return;
    }
    await settle(draft, refusalOf(draft, error));
  }
}

/** The answer the review has at the store now (null: none), for a send that died midway. */
async function answerAtStore(
  draft: Sending,
  credential: AppStoreConnectKey | ServiceAccountKey,
): Promise<{ body: string; id: string | null; state: string | null } | null> {
  const app = draft.review.trackedApp;
  if (app.store === 'app_store')
    return readReviewResponse(credential as AppStoreConnectKey, draft.review.storeReviewId);
  const reply = await readPlayReply(credential as ServiceAccountKey, app.storeId, draft.review.storeReviewId);
  return reply && { body: reply.text, id: null, state: 'PUBLISHED' };
}

/** Whether the store already has what the draft asks: its text as the answer, or no answer for a deletion. */
function matches(draft: Sending, atStore: { body: string } | null): boolean {
  return draft.action === 'delete' ? atStore === null : atStore?.body === draft.body;
}

/** Asks the store; the answer the review then has (null once deleted). */
async function write(
  draft: Sending,
  credential: AppStoreConnectKey | ServiceAccountKey,
): Promise<{ body: string; id: string | null; state: string | null } | null> {
  const app = draft.review.trackedApp;
  if (app.store === 'app_store') {
    const key = credential as AppStoreConnectKey;
    if (draft.action === 'delete') {
      if (draft.review.responseId) await deleteReviewResponse(key, draft.review.responseId);
      return null;
    }
    const created = await respondToReview(key, draft.review.storeReviewId, draft.body!);
    return { body: draft.body!, id: created.id, state: created.state };
  }
  const reply = await replyToPlayReview(
    credential as ServiceAccountKey,
    app.storeId,
    draft.review.storeReviewId,
    draft.body!,
  );
  return { body: reply.text, id: null, state: 'PUBLISHED' };
}

/** A refusal that trying again would not change, as the draft's end. */
function refusalOf(draft: Sending, error: StoreAccountError): Settled {
  const store = draft.review.trackedApp.store === 'app_store' ? 'App Store Connect' : 'Google Play';
  switch (error.kind) {
    case 'credential-refused':
    case 'invalid-credential':
      return {
        state: 'failed',
        problemKind: 'credential-refused',
        problem: `${error.message} Replace the key in Settings → Store accounts, then draft the reply again.`,
      };
    case 'not-found':
      return {
        state: 'rejected',
        problemKind: 'review-deleted',
        problem: `${store} no longer has this review (its author deleted it), so it takes no answer.`,
      };
    case 'refused':
      return { state: 'rejected', problemKind: 'refused', problem: `${store} refused the reply: ${error.message}` };
    default:
      return {
        state: 'failed',
        problemKind: 'store-unavailable',
        problem: `${store} did not take the reply after ${draft.attempts} attempts over about a day: ${error.message}`,
      };
  }
}

async function retryLater(draft: Sending, error: StoreAccountError): Promise<void> {
  const delay = Math.max(RETRY_DELAYS_SECONDS[draft.attempts - 1] ?? 0, error.retryAfterSeconds ?? 0);
  await db.replyDraft.updateMany({
    where: { id: draft.id, state: 'sending' },
    data: {
      state: 'approved',
      nextAttemptAt: new Date(Date.now() + delay * 1000),
      sendingSince: null,
      problem: error.message,
      updatedAt: new Date(),
    },
  });
}

/** Ends a draft that is being sent: its state, the review's answer as the store now holds it, the event and the log. */
async function settle(draft: Sending, outcome: Settled, now = new Date()): Promise<void> {
  await db.$transaction(async (tx) => {
    const { count } = await tx.replyDraft.updateMany({
      where: { id: draft.id, state: 'sending' },
      data:
        outcome.state === 'sent'
          ? { state: 'sent', sentAt: now, nextAttemptAt: null, problem: null, problemKind: null, updatedAt: now }
          : {
              state: outcome.state,
              nextAttemptAt: null,
              problem: outcome.problem,
              problemKind: outcome.problemKind,
              updatedAt: now,
            },
    });
    if (!count) return;
    if (outcome.state === 'sent')
      await tx.storeAccountReview.update({
        where: { id: draft.review.id },
        data: {
          responseBody: outcome.response?.body ?? null,
          responseId: outcome.response?.id ?? null,
          responseState: outcome.response?.state ?? null,
          responseUpdatedAt: outcome.response ? now : null,
        },
      });
    if (outcome.state === 'failed' && outcome.problemKind === 'credential-refused' && draft.review.trackedApp.ownedBy)
      await tx.storeAccount.updateMany({
        where: { id: draft.review.trackedApp.ownedBy.id },
        data: { lastError: outcome.problem },
      });
    const problem = outcome.state === 'sent' ? null : outcome.problem;
    const data = draftEventData({
      id: draft.id,
      appId: draft.review.trackedApp.id,
      reviewId: draft.review.id,
      action: draft.action,
      body: draft.body,
      problem,
    });
    await recordEvents(
      [{ accountId: draft.accountId, type: `review_reply.${outcome.state}`, appId: data.appId, data, requestId: null }],
      tx,
    );
    await recordSecurityEvent(
      {
        accountId: draft.accountId,
        kind: `review_reply.${outcome.state}`,
        target: draftTarget({ id: draft.id, action: draft.action }, draft.review.author),
        before: { state: 'approved' },
        after: { state: outcome.state, ...(problem && { problem }) },
        actor: { type: 'system' },
      },
      tx,
    );
  });
}

/** What a simulated store does with a draft: takes it, or refuses it as the draft's X-Test-Trigger chose. */
function simulatedOutcomeOf(draft: Sending): Settled {
  const refusals: Record<SimulatedOutcome, StoreAccountError> = {
    'review-deleted': new StoreAccountError('not-found', 'The review was deleted (test mode).'),
    'reply-refused': new StoreAccountError('refused', 'The reply is not one the store takes (test mode).'),
    'credential-revoked': new StoreAccountError(
      'credential-refused',
      'The store refused the key: it was revoked (test mode).',
    ),
  };
  const refusal = refusals[draft.simulatedOutcome as SimulatedOutcome];
  if (refusal) return refusalOf(draft, refusal);
  return {
    state: 'sent',
    response: draft.action === 'delete' ? null : { body: draft.body!, id: `simulated-${draft.id}`, state: 'PUBLISHED' },
  };
}

/**
 * A sandbox's simulated store account "sends" an approved reply at once, in the approval's call: taken as the sender
 * takes one (unless the sender took it first), then settled as the simulated store answers.
 */
export async function settleSimulatedReply(draftId: string, now: Date): Promise<void> {
  const { count } = await db.replyDraft.updateMany({
    where: { id: draftId, state: 'approved' },
    data: { state: 'sending', sendingSince: now, attempts: { increment: 1 }, updatedAt: now },
  });
  if (!count) return;
  const draft = await readSending(draftId);
  await settle(draft, simulatedOutcomeOf(draft), now);
}

/** Runs the sender every `intervalMs` in the background work; stopping waits for the pass in progress. */
export function startReplySender({ intervalMs = 1000 }: { intervalMs?: number } = {}): () => Promise<void> {
  return startPollingLoop(
    async (stopping) => {
      while (!stopping() && (await sendDueReplies()) === BATCH) {
        // a full pass: more may be due
      }
    },
    { intervalMs, failure: 'the reply sender could not take its drafts' },
  );
}
