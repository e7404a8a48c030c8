// The kinds of domain event (CONTRACT "Webhooks"), each with its one-line description and the schema of its `data`:
// the webhooks docs, the endpoint form, the contract's `webhooks` section and the type every producer of an event is
// checked against (./events.ts) all read them here.
import { z } from 'zod';
import { PLAN_TIERS } from '@/server/services/accounts/plans';

export const EVENT_TYPES = [
  'keyword.rank_changed',
  'keyword.added',
  'competitor.added',
  'app.metadata_changed',
  'review.created',
  'usage.threshold_reached',
  'api_key.created',
  'api_key.revoked',
  'api_key.expiring',
  'plan.changed',
  'review_reply.drafted',
  'review_reply.approved',
  'review_reply.sent',
  'review_reply.failed',
  'review_reply.rejected',
  'export.completed',
  'export.failed',
  'webhook.test',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One line per kind, for the webhooks docs and the endpoint form. */
export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  'keyword.rank_changed': 'A tracked keyword moved 5 or more places, or entered or left the top 200.',
  'keyword.added': 'Keywords were added to an app’s tracked list.',
  'competitor.added': 'A competitor was added to an app.',
  'app.metadata_changed': 'A field of an app’s store listing changed (title, subtitle, description…).',
  'review.created': 'New reviews of a tracked app were recorded.',
  'usage.threshold_reached': 'The account used 80 % or 100 % of its monthly credits (once each per month).',
  'api_key.created': 'An API key was created or rolled.',
  'api_key.revoked': 'An API key was revoked.',
  'api_key.expiring': 'An API key expires within 7 days (sent once per key).',
  'plan.changed': 'The account’s plan changed: a new subscription, a cancellation, or the end of the trial.',
  'review_reply.drafted':
    'A reply to a review of an owned app (or the deletion of an answer) was drafted: it waits for a member to approve it.',
  'review_reply.approved': 'A member approved a drafted reply: it is being sent to the store.',
  'review_reply.sent': 'The store took an approved reply (or deleted the answer).',
  'review_reply.failed':
    'An approved reply could not be sent: the store refused the store account’s credential, or did not answer after every retry.',
  'review_reply.rejected':
    'The store refused an approved reply: the review was deleted, or the text is not one it takes.',
  'export.completed':
    'An export’s files are written: each with its rows, size and SHA-256 (GET /exports/{exportId} gives their links).',
  'export.failed': 'An export could not be written; its credits were given back.',
  'webhook.test': 'A test event sent from the dashboard to one endpoint.',
};

const id = (what: string) => z.uuid().meta({ description: what });
const country = z.string().length(2).meta({ description: 'Storefront, ISO 3166-1 alpha-2, upper-case.' });
const rank = z.int().min(1).nullable();
const keyFields = {
  keyId: id('The key’s id.'),
  name: z.string(),
  scope: z.enum(['read-only', 'read-write']),
  displayPrefix: z
    .string()
    .meta({ description: 'The key’s first characters, as the dashboard shows them (`svc_live_ab12`).' }),
};

const replyDraftFields = z.object({
  appId: id('The app.'),
  draftId: id('The reply draft.'),
  reviewId: id('The review (`source: store_account`).'),
  action: z.enum(['reply', 'delete']).meta({ description: 'Write (or replace) the answer, or delete it.' }),
  body: z.string().nullable().meta({ description: 'The reply’s text; null for a deletion.' }),
  problem: z
    .string()
    .nullable()
    .meta({ description: 'Why the store did not take it (failed, rejected), or why the last attempt did not.' }),
});

/** What `data` holds for each kind. Open objects: v1 may add members to an event, never remove one. */
export const EVENT_PAYLOADS = {
  'keyword.rank_changed': z.object({
    appId: id('The app.'),
    term: z.string(),
    country,
    date: z.iso.date().meta({ description: 'The day of the new rank.' }),
    previousRank: rank.meta({ description: 'Rank the day before; null when not in the top 200.' }),
    rank: rank.meta({ description: 'Rank that day; null when not in the top 200.' }),
  }),
  'keyword.added': z.object({
    appId: id('The app.'),
    keywordId: id('The tracked keyword.'),
    term: z.string(),
    country,
  }),
  'competitor.added': z.object({
    appId: id('The app.'),
    competitorId: id('The competitor.'),
    store: z.enum(['app_store', 'google_play']),
    storeId: z.string(),
    name: z.string().nullable(),
  }),
  'app.metadata_changed': z.object({
    appId: id('The app.'),
    country,
    fields: z
      .array(z.string())
      .min(1)
      .meta({ description: 'The listing fields that changed (`title`, `subtitle`, `description`…).' }),
    version: z.string().meta({ description: 'The app version of the new listing.' }),
  }),
  'review.created': z.object({
    appId: id('The app.'),
    reviewId: id('The review.'),
    rating: z.int().min(1).max(5),
    country,
  }),
  'usage.threshold_reached': z.object({
    percent: z.union([z.literal(80), z.literal(100)]),
    used: z.int().min(0),
    limit: z.int().min(0),
    periodStart: z.iso.datetime(),
    resetsAt: z.iso.datetime(),
  }),
  'api_key.created': z.object({
    ...keyFields,
    rolledFrom: id('The key this one was rolled from, when it was.').optional(),
  }),
  'api_key.revoked': z.object(keyFields),
  'api_key.expiring': z.object({
    ...keyFields,
    expiresAt: z.iso.datetime().meta({ description: 'When the key stops working.' }),
  }),
  'plan.changed': z.object({
    from: z.enum(PLAN_TIERS).nullable().meta({ description: 'The plan before; null for an account’s first plan.' }),
    to: z.enum(PLAN_TIERS),
    reason: z.enum(['trial_started', 'trial_ended', 'stripe', 'operator']),
    changedAt: z.iso.datetime(),
  }),
  'review_reply.drafted': replyDraftFields,
  'review_reply.approved': replyDraftFields,
  'review_reply.sent': replyDraftFields,
  'review_reply.failed': replyDraftFields,
  'review_reply.rejected': replyDraftFields,
  'export.completed': z.object({
    exportId: id('The export.'),
    format: z.enum(['parquet', 'csv', 'jsonl']),
    rows: z.int().min(0).meta({ description: 'Rows in all its files.' }),
    files: z.array(
      z.object({
        fileId: id('The file.'),
        dataset: z.string(),
        rows: z.int().min(0),
        bytes: z.int().min(0),
        sha256: z.string().meta({ description: 'Hex SHA-256 of the file.' }),
      }),
    ),
  }),
  'export.failed': z.object({
    exportId: id('The export.'),
    format: z.enum(['parquet', 'csv', 'jsonl']),
    error: z.string(),
  }),
  'webhook.test': z.object({ endpointId: id('The endpoint the test was sent to.'), message: z.string() }),
} satisfies Record<EventType, z.ZodType>;

export type EventPayload<T extends EventType> = z.input<(typeof EVENT_PAYLOADS)[T]>;
