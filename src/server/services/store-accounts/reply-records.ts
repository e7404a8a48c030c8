// What every state of a reply draft records (./reply-drafts.ts, ./reply-sender.ts): its webhook event's data and its
// security-log entry's target, the same for each state.

export const REPLY_ACTIONS = ['reply', 'delete'] as const;
export type ReplyAction = (typeof REPLY_ACTIONS)[number];

/** What a test key's X-Test-Trigger may choose for the sending of its draft, in a sandbox's simulated store account. */
export const SIMULATED_OUTCOMES = ['review-deleted', 'reply-refused', 'credential-revoked'] as const;
export type SimulatedOutcome = (typeof SIMULATED_OUTCOMES)[number];

/** The draft as an event's data: every state's event carries the same. */
export function draftEventData(draft: {
  id: string;
  appId: string;
  reviewId: string;
  action: ReplyAction;
  body: string | null;
  problem: string | null;
}) {
  return {
    appId: draft.appId,
    draftId: draft.id,
    reviewId: draft.reviewId,
    action: draft.action,
    body: draft.body,
    problem: draft.problem,
  };
}

/** The security log's target: the draft, named by what it does to whose review. */
export function draftTarget(draft: { id: string; action: ReplyAction }, reviewAuthor: string | null) {
  const whose = reviewAuthor ? `the review by ${reviewAuthor}` : 'a review';
  return {
    type: 'reply_draft' as const,
    id: draft.id,
    label: draft.action === 'delete' ? `Deletion of the answer to ${whose}` : `Reply to ${whose}`,
  };
}
