// The procedures about reviews: the list and the insights; replies to the reviews of an owned app, drafted by any
// credential that may write and approved by a member whose role allows it (a settings operation: never a key).
import { apiProcedure, settingsProcedure } from '@/server/api/trpc';
import { INSIGHTS_DAYS, listReviews, reviewInsights } from '@/server/services/aso/reviews';
import {
  approveReplyDraft,
  discardReplyDraft,
  draftReply,
  listReplyDrafts,
  readReplyDraft,
} from '@/server/services/store-accounts/reply-drafts';
import { SIMULATED_OUTCOMES, type SimulatedOutcome } from '@/server/services/store-accounts/reply-records';
import {
  draftReplyInput,
  insightsInput,
  insightsOutput,
  listReplyDraftsInput,
  listReviewsInput,
  listReviewsOutput,
  replyDraftInput,
  replyDraftOutput,
  replyDraftPageOutput,
  toReplyDraftOutput,
} from './reviews.schema';

export const listReviewsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/reviews',
      summary: 'List reviews',
      description:
        'Reviews of every storefront, paginated, optionally of one star rating and one sentiment label. `source=store_account` answers every review of an app you own, read with your connected store account, with your answers (`response`) and the reply being drafted (`replyDraft`).',
      tags: ['Reviews'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
    paging: { list: 'items', pagedBy: 'procedure' },
  })
  .input(listReviewsInput)
  .output(listReviewsOutput)
  .query(async ({ ctx, input }) => {
    const page = await listReviews(ctx.actor.accountId, {
      appId: input.id,
      page: input.page,
      pageSize: input.pageSize,
      rating: input.rating,
      sentiment: input.sentiment,
      sort: input.sort,
      source: input.source,
    });
    return {
      ...page,
      items: page.items.map((item) =>
        item.source === 'public'
          ? { ...item, reviewedAt: item.reviewedAt.toISOString() }
          : {
              ...item,
              reviewedAt: item.reviewedAt.toISOString(),
              response: item.response && {
                ...item.response,
                updatedAt: item.response.updatedAt?.toISOString() ?? null,
              },
            },
      ),
    };
  });

export const reviewInsightsProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/reviews/insights',
      summary: 'Review insights',
      description: `Over the reviews of the last ${INSIGHTS_DAYS} days of data: sentiment distribution (wink-nlp lexicon), top topics, bug reports and feature requests, each with counts and up to three example review ids (newest first).`,
      tags: ['Reviews'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    cache: 'app',
  })
  .input(insightsInput)
  .output(insightsOutput)
  .query(({ ctx, input }) => reviewInsights(ctx.actor.accountId, { appId: input.id }));

const REPLIES = { tags: ['Reviews'], protect: true };

export const draftReplyProcedure = apiProcedure
  .meta({
    openapi: {
      ...REPLIES,
      method: 'POST',
      path: '/apps/{id}/reviews/{reviewId}/reply-drafts',
      summary: 'Draft a reply to a review',
      description:
        'Drafts an answer to a review of an app you own (`source: store_account`), or the deletion of its answer (`action: delete`). Nothing is sent: a member whose role allows it approves the draft in the dashboard (or with a session token, `POST /apps/{id}/reply-drafts/{draftId}/approve`), and only then is it sent to the store, once. A newer draft of the same review replaces one still waiting; while one is approved or being sent, another is 409. Each state is a `review_reply.*` webhook event. Needs a read-write key. In test mode, `X-Test-Trigger: review-deleted`, `reply-refused` or `credential-revoked` chooses how the simulated store answers the sending.',
      contentTypes: ['application/json'],
    },
    scope: 'write',
    appInput: 'id',
    credits: 1,
    tool: 'reviews_draft_reply',
    problems: ['CONFLICT'],
  })
  .input(draftReplyInput)
  .output(replyDraftOutput)
  .mutation(async ({ ctx, input }) => {
    const trigger = ctx.testTrigger;
    const simulatedOutcome = (SIMULATED_OUTCOMES as readonly string[]).includes(trigger ?? '')
      ? (trigger as SimulatedOutcome)
      : undefined;
    return toReplyDraftOutput(
      await draftReply(
        ctx.actor,
        { appId: input.id, reviewId: input.reviewId, action: input.action, body: input.body },
        { simulatedOutcome },
      ),
    );
  });

export const listReplyDraftsProcedure = apiProcedure
  .meta({
    openapi: {
      ...REPLIES,
      method: 'GET',
      path: '/apps/{id}/reply-drafts',
      summary: 'List reply drafts',
      description:
        'The app’s replies to reviews, newest first, in every state or one (`state`): what waits for approval, what was sent, what the store refused and why.',
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    tool: 'reviews_reply_drafts',
    paging: { list: 'items', pagedBy: 'procedure' },
  })
  .input(listReplyDraftsInput)
  .output(replyDraftPageOutput)
  .query(async ({ ctx, input }) => {
    const { freshness, ...page } = await listReplyDrafts(ctx.actor.accountId, {
      appId: input.id,
      state: input.state,
      page: input.page,
      pageSize: input.pageSize,
    });
    if (ctx.answerNotes) ctx.answerNotes.freshness = freshness;
    return { ...page, items: page.items.map(toReplyDraftOutput) };
  });

export const getReplyDraftProcedure = apiProcedure
  .meta({
    openapi: {
      ...REPLIES,
      method: 'GET',
      path: '/apps/{id}/reply-drafts/{draftId}',
      summary: 'Get a reply draft',
      description: 'One reply draft of the app: its state, who drafted and approved it, and the store’s answer.',
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    tool: 'reviews_reply_draft',
  })
  .input(replyDraftInput)
  .output(replyDraftOutput)
  .query(async ({ ctx, input }) => {
    const { draft, freshness } = await readReplyDraft(ctx.actor.accountId, { appId: input.id, draftId: input.draftId });
    if (ctx.answerNotes) ctx.answerNotes.freshness = freshness;
    return toReplyDraftOutput(draft);
  });

export const discardReplyDraftProcedure = apiProcedure
  .meta({
    openapi: {
      ...REPLIES,
      method: 'POST',
      path: '/apps/{id}/reply-drafts/{draftId}/discard',
      summary: 'Discard a reply draft',
      description:
        'Discards a draft not yet sent (drafted, or approved and not yet taken by the sender); one being sent or sent is 409. Needs a read-write key.',
    },
    scope: 'write',
    appInput: 'id',
    credits: 0,
    tool: 'reviews_discard_reply_draft',
    problems: ['CONFLICT'],
  })
  .input(replyDraftInput)
  .output(replyDraftOutput)
  .mutation(async ({ ctx, input }) =>
    toReplyDraftOutput(await discardReplyDraft(ctx.actor, { appId: input.id, draftId: input.draftId }, ctx.now)),
  );

export const approveReplyDraftProcedure = settingsProcedure
  .meta({
    openapi: {
      ...REPLIES,
      method: 'POST',
      path: '/apps/{id}/reply-drafts/{draftId}/approve',
      summary: 'Approve a reply draft',
      description:
        'Approves a drafted reply: it is then sent to the store, once, retried with backoff while the store is unavailable. A person’s act: a session token of a member whose role allows approving replies (owner and admin by default); never an API key or a connected app (403). The answer is the draft as approved; its later states come as `review_reply.*` webhook events and in `GET /apps/{id}/reply-drafts/{draftId}`.',
    },
    scope: 'admin',
    appInput: 'id',
    credits: 0,
    permission: 'replies.approve',
    problems: ['CONFLICT'],
  })
  .input(replyDraftInput)
  .output(replyDraftOutput)
  .mutation(async ({ ctx, input }) =>
    toReplyDraftOutput(await approveReplyDraft(ctx.actor, { appId: input.id, draftId: input.draftId }, ctx.now)),
  );
