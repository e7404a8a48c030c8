// Settings → Webhooks, on the dashboard and under /webhook-endpoints on the public API: inputs and answers.
import { z } from 'zod';
import { API_VERSIONS } from '@/server/domain/api-versions';
import { EVENT_TYPES } from '@/server/services/events/event-kinds';
import type { NewWebhookEndpoint } from '@/server/services/webhooks/endpoints';

export const endpointId = z.strictObject({
  endpointId: z
    .uuid('Must be a UUID.')
    .meta({ description: 'The endpoint’s id (`id` in its answers).', example: '2b7e4d1c-5a3f-4e8b-9c6d-0f1a2b3c4d5e' }),
});
export const deliveryId = z.strictObject({
  deliveryId: z.uuid('Must be a UUID.').meta({
    description: 'The delivery’s id (`id` in the delivery log; `X-Service-Delivery` on each attempt).',
    example: '9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  }),
});

export const createEndpointInput = z.strictObject({
  url: z.string().trim().min(1).max(2048).meta({ example: 'https://hooks.example.com/aso-events' }),
  description: z.string().trim().max(200).optional(),
  eventTypes: z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length).default([]),
  apiVersion: z.enum(API_VERSIONS).optional().meta({
    description:
      'The dated API version its events are shaped by (each delivery names it in `apiVersion` and the `Aso-Version` header). Omitted: the account’s, else the newest.',
  }),
}) satisfies z.ZodType<NewWebhookEndpoint>;

export const updateEndpointInput = endpointId.extend({
  url: createEndpointInput.shape.url.optional(),
  /** null or "": none. */
  description: z.string().trim().max(200).nullable().optional(),
  /** []: every kind. */
  eventTypes: createEndpointInput.shape.eventTypes.unwrap().optional(),
  enabled: z.boolean().optional(),
});

/** The dashboard's Enable and Disable buttons. */
export const endpointEnabledInput = endpointId.extend({ enabled: z.boolean() });

export const webhookEndpointOutput = z.object({
  id: z.uuid(),
  url: z.string(),
  description: z.string().nullable(),
  eventTypes: z.array(z.enum(EVENT_TYPES)).describe('The event kinds sent to the endpoint; empty: every kind.'),
  enabled: z.boolean(),
  disabledReason: z
    .string()
    .nullable()
    .describe(
      'Why the service disabled the endpoint (after days of failed deliveries); null when enabled, or disabled by its owner.',
    ),
  failingSince: z.iso.datetime().nullable(),
  secretHint: z
    .string()
    .describe('The first characters of the signing secret, to tell which one is in use: never the secret.'),
  rotatingUntil: z.iso.datetime().nullable().describe('After a rotation, until when the previous secret also signs.'),
  createdAt: z.iso.datetime(),
  apiVersion: z.enum(API_VERSIONS).describe('The dated API version its events are shaped by.'),
});

export const webhookEndpointWithSecretOutput = z.object({
  endpoint: webhookEndpointOutput,
  secret: z
    .string()
    .describe(
      'The signing secret (`whsec_…`): in this answer only. Verify each delivery’s `X-Service-Signature` with it.',
    ),
});

export const rotatedSecretOutput = z.object({
  secret: z.string().describe('The new signing secret: in this answer only.'),
  previousSecretUntil: z.iso.datetime().describe('Until when deliveries are also signed with the previous secret.'),
});

export const deliveryOutput = z.object({
  id: z.uuid(),
  eventType: z.string(),
  status: z
    .string()
    .describe('`pending` (being delivered or retried), `succeeded`, or `failed` (given up after its last retry).'),
  attempts: z.array(
    z.object({
      attemptedAt: z.iso.datetime(),
      statusCode: z.int().nullable().describe('The receiver’s HTTP status; null when no answer came (see `error`).'),
      durationMs: z.int(),
      responseExcerpt: z.string().nullable().describe('The start of the receiver’s answer.'),
      error: z.string().nullable(),
    }),
  ),
  nextAttemptAt: z.iso.datetime().nullable(),
  requested: z
    .boolean()
    .describe('A test event or a redelivery asked for by the owner, rather than an event’s own delivery.'),
  createdAt: z.iso.datetime(),
});

export const deliveryRequestedOutput = z.object({
  deliveryId: z.uuid().describe('The delivery, sent within about a second; follow it in the delivery log.'),
});
