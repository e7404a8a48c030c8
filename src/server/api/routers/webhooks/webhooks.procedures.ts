// Settings → Webhooks: the account's endpoints and their deliveries, for the dashboard and, under /webhook-endpoints,
// for a session token on the public API (a script or Terraform of the account's owner). Never for an API key
// (scope 'admin'). Every SSRF rule and abuse bound is the service's, so both surfaces have them.
import { z } from 'zod';
import { dashboardProcedure, settingsProcedure } from '@/server/api/trpc';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  endpointView,
  getWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhookEndpointEnabled,
  updateWebhookEndpoint,
} from '@/server/services/webhooks/endpoints';
import {
  createEndpointInput,
  deliveryId,
  deliveryOutput,
  deliveryRequestedOutput,
  endpointEnabledInput,
  endpointId,
  rotatedSecretOutput,
  updateEndpointInput,
  webhookEndpointOutput,
  webhookEndpointWithSecretOutput,
} from './webhooks.schema';

const SETTINGS = { tags: ['Webhook endpoints'], protect: true };
const ADMIN = { scope: 'admin', credits: 0, permission: 'webhooks.manage' } as const;

export const listWebhookEndpointsProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'GET',
      path: '/webhook-endpoints',
      summary: 'List webhook endpoints',
      description: 'Every endpoint of the account, oldest first. Never a signing secret.',
    },
    ...ADMIN,
  })
  .input(z.object({}).optional())
  .output(z.array(webhookEndpointOutput))
  .query(({ ctx }) => listWebhookEndpoints(ctx.actor.accountId));

export const createWebhookEndpointProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/webhook-endpoints',
      summary: 'Create a webhook endpoint',
      description:
        'An HTTPS URL that resolves to public addresses only (no loopback, private, link-local or other special-purpose address, checked again at each delivery), an optional description and the event kinds to send (none: every kind). At most 16 endpoints an account. The signing secret is in this answer only. Send an `Idempotency-Key`: a retried create then answers the same endpoint (the stored answer is encrypted).',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
    problems: ['LIMIT_REACHED'],
  })
  .input(createEndpointInput)
  .output(webhookEndpointWithSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await createWebhookEndpoint(ctx.actor.accountId, input);
    return { endpoint: endpointView(endpoint), secret };
  });

export const getWebhookEndpointProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'GET',
      path: '/webhook-endpoints/{endpointId}',
      summary: 'Get a webhook endpoint',
      description: 'One endpoint of the account: another account’s is a 404.',
    },
    ...ADMIN,
  })
  .input(endpointId)
  .output(webhookEndpointOutput)
  .query(({ ctx, input }) => getWebhookEndpoint(ctx.actor.accountId, input.endpointId));

export const updateWebhookEndpointProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'PATCH',
      path: '/webhook-endpoints/{endpointId}',
      summary: 'Update a webhook endpoint',
      description:
        'Changes the members sent: `url` (checked as at creation), `description` (null: none), `eventTypes` (empty: every kind), `enabled` (enabling again clears the reason the service disabled it for).',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(updateEndpointInput)
  .output(webhookEndpointOutput)
  .mutation(({ ctx, input: { endpointId: id, ...changes } }) =>
    updateWebhookEndpoint(ctx.actor.accountId, id, changes),
  );

export const deleteWebhookEndpointProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'DELETE',
      path: '/webhook-endpoints/{endpointId}',
      summary: 'Delete a webhook endpoint',
      description: 'The endpoint and its delivery log, for good: nothing more is sent to it.',
    },
    ...ADMIN,
  })
  .input(endpointId)
  .output(z.object({ deleted: z.literal(true) }))
  .mutation(async ({ ctx, input }) => {
    await deleteWebhookEndpoint(ctx.actor.accountId, input.endpointId);
    return { deleted: true as const };
  });

export const rotateWebhookSecretProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/webhook-endpoints/{endpointId}/rotate-secret',
      summary: 'Rotate a signing secret',
      description:
        'A new signing secret, in this answer only. For 24 hours each delivery is signed with both (two `v1=` signatures), so receivers can switch without missing one.',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(endpointId)
  .output(rotatedSecretOutput)
  .mutation(async ({ ctx, input }) => {
    const { secret, previousSecretUntil } = await rotateWebhookSecret(ctx.actor.accountId, input.endpointId);
    return { secret, previousSecretUntil: previousSecretUntil.toISOString() };
  });

export const sendTestEventProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/webhook-endpoints/{endpointId}/test-events',
      summary: 'Send a test event',
      description:
        'A `webhook.test` event to this endpoint only, signed like any other, within about a second. Test events and redeliveries together: at most 10 a minute per endpoint (429).',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(endpointId)
  .output(deliveryRequestedOutput)
  .mutation(({ ctx, input }) => sendTestEvent(ctx.actor, input.endpointId));

export const listDeliveriesProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'GET',
      path: '/webhook-endpoints/{endpointId}/deliveries',
      summary: 'List an endpoint’s deliveries',
      description:
        'The endpoint’s latest 50 deliveries, newest first, each with every attempt: when, the status answered, how long it took, the start of the answer or the error.',
    },
    ...ADMIN,
  })
  .input(endpointId)
  .output(z.array(deliveryOutput))
  .query(({ ctx, input }) => listDeliveries(ctx.actor.accountId, input.endpointId));

export const redeliverProcedure = settingsProcedure
  .meta({
    openapi: {
      ...SETTINGS,
      method: 'POST',
      path: '/webhook-deliveries/{deliveryId}/redeliver',
      summary: 'Redeliver',
      description:
        'Sends a delivery again, with the same delivery id and body, whatever its state. Counts with test events: at most 10 a minute per endpoint (429).',
      contentTypes: ['application/json'],
    },
    ...ADMIN,
  })
  .input(deliveryId)
  .output(deliveryRequestedOutput)
  .mutation(({ ctx, input }) => redeliver(ctx.actor.accountId, input.deliveryId));

/** Dashboard only: the Enable and Disable buttons (the REST surface sends `enabled` with PATCH). */
export const setWebhookEndpointEnabledProcedure = dashboardProcedure
  .meta({ permission: 'webhooks.manage' })
  .input(endpointEnabledInput)
  .mutation(({ ctx, input }) => setWebhookEndpointEnabled(ctx.actor.accountId, input.endpointId, input.enabled));
