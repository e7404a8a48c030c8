// The contract's `webhooks` section (OpenAPI 3.1): each event kind as the request the service sends to an endpoint,
// with its envelope and payload schema (from src/server/services/events/event-kinds.ts), its three headers, an example
// and the signature scheme (src/server/services/webhooks/signing.ts), so that a receiver can be generated too.
import { z } from 'zod';
import {
  EVENT_DESCRIPTIONS,
  EVENT_PAYLOADS,
  EVENT_TYPES,
  type EventPayload,
  type EventType,
} from '@/server/services/events/event-kinds';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, TIMEOUT_MS } from '@/server/services/webhooks/delivery';
import { SECRET_PREFIX, TOLERANCE_SECONDS } from '@/server/services/webhooks/signing';
import { pascalCase } from './document-names';

type Json = Record<string, unknown>;

const APP_ID = '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11';
const KEY_ID = '4c6d8e0f-2a3b-4c5d-8e6f-7a8b9c0d1e2f';

/** One example of each kind's data, as the code path that records it writes it. */
/** A request caused the event (its X-Request-Id), or the daily refresh or billing did (null). */
const EXAMPLE_REQUEST_ID: Record<EventType, string | null> = {
  'keyword.rank_changed': null,
  'keyword.added': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'competitor.added': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'app.metadata_changed': null,
  'review.created': null,
  'usage.threshold_reached': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'api_key.created': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'api_key.revoked': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'api_key.expiring': null,
  'plan.changed': null,
  'review_reply.drafted': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'review_reply.approved': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
  'review_reply.sent': null,
  'review_reply.failed': null,
  'review_reply.rejected': null,
  'export.completed': null,
  'export.failed': null,
  'webhook.test': '5f0c2a7e-3b1d-4c8e-9a6f-2d4b7e1c0a93',
};

/** A reply draft's event data in each state: the same members, the problem once the store did not take it. */
const replyExample = (problem: string | null) => ({
  appId: APP_ID,
  draftId: '3e5a7c9b-1d2f-4a6b-8c0d-2e4f6a8b0c1d',
  reviewId: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f',
  action: 'reply' as const,
  body: 'Thank you! Offline mode is coming in the next version.',
  problem,
});

const EXAMPLE_DATA: { [T in EventType]: EventPayload<T> } = {
  'export.completed': {
    exportId: '6a1b3c5d-7e9f-4a1b-8c3d-5e7f9a1b3c5d',
    format: 'parquet',
    rows: 547_500,
    files: [
      {
        fileId: '8c2d4e6f-0a1b-4c3d-9e5f-7a9b1c3d5e7f',
        dataset: 'keyword_ranks',
        rows: 547_500,
        bytes: 2_183_004,
        sha256: '9f2b6c0d7e1a4b3c5d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c',
      },
    ],
  },
  'export.failed': {
    exportId: '6a1b3c5d-7e9f-4a1b-8c3d-5e7f9a1b3c5d',
    format: 'csv',
    error: 'The export could not be written; nothing was charged. Ask for it again, or write to support.',
  },
  'review_reply.drafted': replyExample(null),
  'review_reply.approved': replyExample(null),
  'review_reply.sent': replyExample(null),
  'review_reply.failed': replyExample(
    'App Store Connect refused the key (The key was revoked.): it was revoked, or it lacks the Customer Support role. Replace the key in Settings → Store accounts, then draft the reply again.',
  ),
  'review_reply.rejected': replyExample(
    'App Store Connect no longer has this review (its author deleted it), so it takes no answer.',
  ),
  'keyword.rank_changed': {
    appId: APP_ID,
    term: 'sleep sounds',
    country: 'US',
    date: '2026-06-30',
    previousRank: 12,
    rank: 5,
  },
  'keyword.added': {
    appId: APP_ID,
    keywordId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    term: 'sleep sounds',
    country: 'US',
  },
  'competitor.added': {
    appId: APP_ID,
    competitorId: '9b2f4e6a-1c3d-4e5f-8a7b-6c5d4e3f2a1b',
    store: 'app_store',
    storeId: '571800810',
    name: 'Calm',
  },
  'app.metadata_changed': {
    appId: APP_ID,
    country: 'US',
    fields: ['subtitle', 'whatsNew', 'version'],
    version: '4.10.0',
  },
  'review.created': { appId: APP_ID, reviewId: '2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f', rating: 5, country: 'US' },
  'usage.threshold_reached': {
    percent: 80,
    used: 4000,
    limit: 5000,
    periodStart: '2026-07-01T00:00:00.000Z',
    resetsAt: '2026-08-01T00:00:00.000Z',
  },
  'api_key.created': { keyId: KEY_ID, name: 'CI', scope: 'read-only', displayPrefix: 'svc_live_ab12' },
  'api_key.revoked': { keyId: KEY_ID, name: 'CI', scope: 'read-only', displayPrefix: 'svc_live_ab12' },
  'api_key.expiring': {
    keyId: KEY_ID,
    name: 'CI',
    scope: 'read-only',
    displayPrefix: 'svc_live_ab12',
    expiresAt: '2026-07-08T23:59:59.999Z',
  },
  'plan.changed': { from: 'solo', to: 'pro', reason: 'stripe', changedAt: '2026-07-01T09:30:00.000Z' },
  'webhook.test': { endpointId: '5e7a9c1b-3d5f-4a7b-9c1d-3e5f7a9b1c3d', message: 'Test event from ASO Analytics' },
};

const schemaName = (kind: EventType) => `${pascalCase(kind)}Event`;

/** A payload as JSON Schema: the input form, so objects stay open to members added within v1. */
function payloadSchema(kind: EventType): Json {
  const { $schema: _, ...schema } = z.toJSONSchema(EVENT_PAYLOADS[kind], {
    target: 'draft-2020-12',
    io: 'input',
  }) as Json;
  return schema;
}

const retries = RETRY_DELAYS_SECONDS.map((seconds) =>
  seconds < 60 ? `${seconds} s` : seconds < 3_600 ? `${seconds / 60} min` : `${seconds / 3_600} h`,
).join(', ');

export const SIGNATURE_SCHEME = {
  header: 'X-Service-Signature',
  format: 't=<unix seconds>,v1=<hex>[,v1=<hex>]',
  algorithm: 'HMAC-SHA256',
  key: `The endpoint's signing secret, the whole string (${SECRET_PREFIX} prefix included), as UTF-8 bytes.`,
  signedPayload: '<t>.<the raw request body>',
  toleranceSeconds: TOLERANCE_SECONDS,
  rotation:
    'For 24 hours after a rotation both secrets sign: one v1 entry each. Accept the request when any entry matches.',
};

const SIGNATURE_TEXT = `Verify \`X-Service-Signature\` (\`t=<unix seconds>,v1=<hex>\`): compute HMAC-SHA256 with the endpoint's signing secret (the whole \`${SECRET_PREFIX}…\` string, UTF-8) over \`<t>.<raw body>\`, compare it in constant time with each \`v1\` entry (two during a secret rotation), and reject a \`t\` more than ${TOLERANCE_SECONDS} s from your clock.`;

const HEADERS: Json[] = [
  {
    in: 'header',
    name: 'X-Service-Event',
    required: true,
    description: 'The event kind, as in the body’s `type`.',
    schema: { type: 'string', enum: [...EVENT_TYPES] },
  },
  {
    in: 'header',
    name: 'X-Service-Delivery',
    required: true,
    description: 'The delivery’s id: the same on every retry of this event to this endpoint. Deduplicate by it.',
    schema: { type: 'string', format: 'uuid' },
    example: '1f3e5d7c-9b2a-4c6e-8d0f-2a4b6c8d0e1f',
  },
  {
    in: 'header',
    name: 'X-Service-Signature',
    required: true,
    description: SIGNATURE_TEXT,
    schema: { type: 'string', pattern: '^t=[0-9]+(,v1=[0-9a-f]{64})+$' },
    example: 't=1782898200,v1=5f0c6b1c2a8e4d7f9b3a1c5e7d9f2b4a6c8e0d2f4a6b8c0e2d4f6a8b0c2e4d6f',
  },
];

/** How a receiver authenticates a delivery: the signature, as a security scheme of the webhook requests. */
export const WEBHOOK_SECURITY_SCHEME: Json = {
  type: 'apiKey',
  in: 'header',
  name: 'X-Service-Signature',
  description: SIGNATURE_TEXT,
};

/** The schemas of the event envelopes and the `webhooks` section that references them. */
export function webhooksSection(): { schemas: Record<string, Json>; webhooks: Record<string, Json> } {
  const schemas: Record<string, Json> = {};
  const webhooks: Record<string, Json> = {};
  for (const kind of EVENT_TYPES) {
    schemas[schemaName(kind)] = {
      type: 'object',
      description: `The body of a \`${kind}\` delivery.`,
      required: ['id', 'type', 'createdAt', 'data'],
      properties: {
        id: {
          type: 'string',
          pattern: '^evt_[0-9a-f]{32}$',
          description: 'The event’s id: the same in every delivery of this event, to every endpoint.',
        },
        type: { const: kind },
        createdAt: { type: 'string', format: 'date-time', description: 'When the event happened.' },
        requestId: {
          type: ['string', 'null'],
          format: 'uuid',
          description:
            'The `X-Request-Id` of the API or dashboard request that caused the event, as in the request’s answer, its log line and its credit ledger row; null for events of the daily refresh, billing and the trial’s end.',
        },
        livemode: {
          type: 'boolean',
          description:
            'false: an event of the account’s test sandbox (test mode), delivered to its test endpoints only; live endpoints never receive one. Absent only from deliveries made before test mode existed, which are all live.',
        },
        data: payloadSchema(kind),
      },
    };
    webhooks[kind] = {
      post: {
        operationId: `webhook.${kind}`,
        summary: kind,
        description: `${EVENT_DESCRIPTIONS[kind]}\n\nSent as a signed POST to each enabled endpoint subscribed to \`${kind}\` (or to every kind). ${SIGNATURE_TEXT} Slack and Discord endpoints get a chat message instead of this body.`,
        tags: ['Webhooks'],
        security: [{ webhookSignature: [] }],
        parameters: HEADERS,
        requestBody: {
          required: true,
          description: 'The event, as JSON (`Content-Type: application/json`).',
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${schemaName(kind)}` },
              examples: {
                [kind]: {
                  summary: EVENT_DESCRIPTIONS[kind],
                  value: {
                    id: 'evt_8c1f2e3d4b5a69788f7e6d5c4b3a2918',
                    type: kind,
                    createdAt: '2026-07-01T09:30:00.000Z',
                    requestId: EXAMPLE_REQUEST_ID[kind],
                    livemode: true,
                    data: EXAMPLE_DATA[kind],
                  },
                },
              },
            },
          },
        },
        responses: {
          '2XX': { description: 'Acknowledged. Answer within the timeout; do the work after answering.' },
          default: {
            description: `Any other answer, or none within ${TIMEOUT_MS / 1000} s, is retried after ${retries} (${MAX_ATTEMPTS} attempts in all), then given up. An endpoint whose deliveries all fail for five days is disabled.`,
          },
        },
      },
    };
  }
  return { schemas, webhooks };
}
