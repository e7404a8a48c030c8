import { z } from 'zod';
import { appIdParam, isoDate, isoDateTime, queryEnum, queryInt, queryIntWithDefault } from '@/server/api/schemas';
import { REVIEW_SORTS, REVIEW_SOURCES, SENTIMENT_LABELS } from '@/server/services/aso/reviews';
import { REPLY_DRAFT_STATES, REPLY_LIMITS, type ReplyDraftView } from '@/server/services/store-accounts/reply-drafts';
import { REPLY_ACTIONS } from '@/server/services/store-accounts/reply-records';
import { reviewAverageFigure, reviewStarsFigure, dataFreshness } from '@/server/api/figures';

/** Pages of reviews a request may ask for: 10 million reviews at the largest page size. */
const MAX_REVIEW_PAGE = 100_000;

export const listReviewsInput = z.object({
  id: appIdParam,
  page: queryIntWithDefault({
    min: 1,
    max: MAX_REVIEW_PAGE,
    default: 1,
    description: 'Page number; a page past the last one is empty.',
  }),
  pageSize: queryIntWithDefault({ min: 1, max: 100, default: 20, description: 'Reviews per page.' }),
  rating: queryInt({ min: 1, max: 5, description: 'Only reviews with this many stars.' }),
  sentiment: z
    .enum(SENTIMENT_LABELS, `Must be one of: ${SENTIMENT_LABELS.join(', ')}.`)
    .meta({
      description: `Only reviews of this sentiment label (see \`sentiment.label\`). One of ${SENTIMENT_LABELS.join(', ')}.`,
    })
    .optional(),
  sort: queryEnum(
    REVIEW_SORTS,
    'newest',
    'Order: newest or oldest first, or highest or lowest rating first (newest first among equals).',
  ),
  source: queryEnum(
    REVIEW_SOURCES,
    'public',
    'Where the reviews come from: `public`, the store’s public feed (its most recent reviews, for every app); `store_account`, every review of an app you own, read with your connected store account (Settings → Store accounts), with your answers. An app no store account of yours owns is 409 with `store_account`.',
  ),
});

const sentiment = z.object({
  score: z.number().min(-1).max(1).meta({ description: 'Lexicon sentiment of title and body, −1 to 1.' }),
  label: z
    .enum(['positive', 'neutral', 'negative'])
    .meta({ description: 'positive ≥ 0.05, negative ≤ −0.05, else neutral.' }),
});

const reviewResponse = z
  .object({
    body: z.string(),
    state: z
      .string()
      .nullable()
      .meta({ description: 'The store’s state of the answer: `PUBLISHED`, or App Store Connect’s `PENDING_PUBLISH`.' }),
    updatedAt: isoDateTime.nullable(),
  })
  .meta({ description: 'The developer’s answer as the store holds it; null: none.' });

const reviewOutput = z
  .object({
    id: z.uuid(),
    source: z.enum(REVIEW_SOURCES).meta({
      description:
        'Where it was read: `public` (the store’s public feed: its most recent reviews) or `store_account` (your connected store account, read daily: App Store Connect gives every review the app has; Google Play only those written or changed in the last 7 days, so its history is what was kept since the account was connected). Answer a `store_account` review with `POST /apps/{id}/reviews/{reviewId}/reply-drafts`.',
    }),
    rating: reviewStarsFigure,
    title: z.string(),
    body: z.string(),
    author: z.string(),
    version: z.string().nullable(),
    country: z.string().length(2).nullable().meta({
      description:
        'The storefront it was written in (ISO 3166-1 alpha-2). Null only for a Google Play review read with your store account (`source: store_account`): Google does not say where its reviewer is; `language` says their language.',
    }),
    reviewedAt: isoDateTime,
    sentiment,
    storeReviewId: z
      .string()
      .optional()
      .meta({ description: 'The store’s own id of the review (`source: store_account` only).' }),
    language: z
      .string()
      .nullable()
      .optional()
      .meta({ description: 'The reviewer’s language, as Google Play gives it (`source: store_account` only).' }),
    response: reviewResponse.nullable().optional().meta({
      description:
        'The developer’s answer as the store holds it, null when there is none (`source: store_account` only: the public feeds do not carry answers).',
    }),
    replyDraft: z
      .object({ id: z.uuid(), action: z.enum(REPLY_ACTIONS), state: z.enum(REPLY_DRAFT_STATES) })
      .nullable()
      .optional()
      .meta({
        description:
          'The reply being drafted, approved or sent for this review, if any (`source: store_account` only).',
      }),
  })
  .meta({ id: 'Review' });

export const listReviewsOutput = z
  .object({
    freshness: dataFreshness,
    items: z.array(reviewOutput),
    page: z.int(),
    pageSize: z.int(),
    total: z.int(),
    totalPages: z.int(),
  })
  .meta({ id: 'ReviewPage' });

const theme = z.object({
  name: z.string(),
  count: z.int().meta({ description: 'Reviews of the period that mention it.' }),
  averageRating: reviewAverageFigure,
  exampleReviewIds: z.array(z.uuid()).max(3),
});
const share = z.object({ count: z.int(), share: z.number().min(0).max(1) });

export const insightsInput = z.object({ id: appIdParam });
export const insightsOutput = z
  .object({
    freshness: dataFreshness,
    period: z.object({ from: isoDate, to: isoDate }),
    reviewCount: z.int(),
    averageRating: reviewAverageFigure.nullable().meta({
      description:
        'Average stars (1–5) of the period’s reviews (reviews with text the store showed, not every rating: the store’s own average is the app’s rating); null when the period has none.',
    }),
    sentiment: z.object({ positive: share, neutral: share, negative: share }),
    topTopics: z
      .array(theme)
      .meta({ description: 'What reviews talk about most (noun lemmas), by number of reviews.' }),
    bugReports: share.extend({ themes: z.array(theme), exampleReviewIds: z.array(z.uuid()) }),
    featureRequests: share.extend({
      requests: z.array(theme).meta({ description: 'Requested features, by number of reviews asking.' }),
    }),
  })
  .meta({ id: 'ReviewInsights' });

export const draftReplyInput = z.strictObject({
  id: appIdParam,
  reviewId: z.uuid('Must be a UUID.').meta({
    description: 'The review (its `id` as `GET /apps/{id}/reviews?source=store_account` lists it).',
    example: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f',
  }),
  action: z
    .enum(REPLY_ACTIONS, `Must be one of: ${REPLY_ACTIONS.join(', ')}.`)
    .default('reply')
    .meta({
      description:
        '`reply` writes the answer (replacing the one the review has); `delete` removes the answer (the App Store only: Google Play’s API cannot).',
    }),
  body: z
    .string()
    .max(REPLY_LIMITS.app_store, `At most ${REPLY_LIMITS.app_store} characters.`)
    .optional()
    .meta({
      example: 'Thank you! Offline mode is coming in the next version.',
      description: `The reply’s text, for \`reply\`: at most ${REPLY_LIMITS.app_store} characters on the App Store, ${REPLY_LIMITS.google_play} on Google Play.`,
    }),
});

export const replyDraftOutput = z
  .object({
    id: z.uuid(),
    appId: z.uuid(),
    reviewId: z.uuid(),
    review: z
      .object({ rating: reviewStarsFigure, title: z.string().nullable(), author: z.string().nullable() })
      .meta({ description: 'The review it answers, as read with the store account.' }),
    action: z.enum(REPLY_ACTIONS),
    body: z.string().nullable().meta({ description: 'The reply’s text; null for a deletion.' }),
    state: z.enum(REPLY_DRAFT_STATES).meta({
      description:
        '`drafted`: waits for a member to approve it; `approved`: to be sent (retried with backoff while the store is unavailable); `sending`; `sent`; `failed`: the store refused the credential, or did not answer after every retry; `rejected`: the store refused the reply (the review was deleted, the text is not one it takes); `discarded`; `superseded`: a newer draft of the same review replaced it.',
    }),
    draftedBy: z.string().meta({ description: 'Who drafted it: an API key, a connected app or a member.' }),
    approvedBy: z.string().nullable().meta({ description: 'The member who approved it.' }),
    approvedAt: isoDateTime.nullable(),
    sentAt: isoDateTime.nullable(),
    attempts: z.int().min(0).meta({ description: 'Times it was sent to the store.' }),
    nextAttemptAt: isoDateTime.nullable().meta({ description: 'When it is sent (again), while `approved`.' }),
    problem: z
      .string()
      .nullable()
      .meta({ description: 'Why the store did not take it (failed, rejected), or why its last attempt did not.' }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'ReplyDraft' });

export const listReplyDraftsInput = z.object({
  id: appIdParam,
  state: z
    .enum(REPLY_DRAFT_STATES, `Must be one of: ${REPLY_DRAFT_STATES.join(', ')}.`)
    .meta({ description: `Only drafts in this state: one of ${REPLY_DRAFT_STATES.join(', ')}.`, example: 'drafted' })
    .optional(),
  page: queryIntWithDefault({ min: 1, max: MAX_REVIEW_PAGE, default: 1, description: 'Page number.' }),
  pageSize: queryIntWithDefault({ min: 1, max: 100, default: 20, description: 'Drafts per page.' }),
});

export const replyDraftPageOutput = z
  .object({
    items: z.array(replyDraftOutput),
    page: z.int(),
    pageSize: z.int(),
    total: z.int(),
    totalPages: z.int(),
  })
  .meta({ id: 'ReplyDraftPage' });

export const replyDraftInput = z.object({
  id: appIdParam,
  draftId: z.uuid('Must be a UUID.').meta({
    description: 'The reply draft, as drafting it answered.',
    example: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d',
  }),
});

/** A draft as answered: its times as ISO strings. */
export function toReplyDraftOutput(draft: ReplyDraftView): z.input<typeof replyDraftOutput> {
  const iso = (date: Date | null) => date?.toISOString() ?? null;
  return {
    ...draft,
    approvedAt: iso(draft.approvedAt),
    sentAt: iso(draft.sentAt),
    nextAttemptAt: iso(draft.nextAttemptAt),
    createdAt: draft.createdAt.toISOString(),
    updatedAt: draft.updatedAt.toISOString(),
  };
}
