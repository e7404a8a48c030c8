// Settings → Webhooks. Dashboard only.
import { z } from 'zod';
import { dashboardProcedure } from '@/server/api/trpc';
import { createEndpointInput, createWebhookEndpoint, deleteWebhookEndpoint, endpointView, listDeliveries, listWebhookEndpoints, redeliver, rotateWebhookSecret, sendTestEvent, setWebhookEndpointEnabled } from '@/server/services/webhooks/endpoints';
import { endpointId } from './webhooks.schema';

export const listWebhookEndpointsProcedure = dashboardProcedure.query(({ ctx }) => listWebhookEndpoints(ctx.actor.accountId));

export const createWebhookEndpointProcedure = dashboardProcedure.input(createEndpointInput).mutation(async ({ ctx, input }) => {
  const { endpoint, secret } = await createWebhookEndpoint(ctx.actor.accountId, input);
  return { endpoint: endpointView(endpoint), secret };
});

export const setWebhookEndpointEnabledProcedure = dashboardProcedure
  .input(endpointId.extend({ enabled: z.boolean() }))
  .mutation(({ ctx, input }) => setWebhookEndpointEnabled(ctx.actor.accountId, input.endpointId, input.enabled));

export const rotateWebhookSecretProcedure = dashboardProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
  const { secret, previousSecretUntil } = await rotateWebhookSecret(ctx.actor.accountId, input.endpointId);
  return { secret, previousSecretUntil: previousSecretUntil.toISOString() };
});

export const deleteWebhookEndpointProcedure = dashboardProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
  await deleteWebhookEndpoint(ctx.actor.accountId, input.endpointId);
  return { deleted: true };
});

export const listDeliveriesProcedure = dashboardProcedure.input(endpointId).query(({ ctx, input }) => listDeliveries(ctx.actor.accountId, input.endpointId));

export const sendTestEventProcedure = dashboardProcedure.input(endpointId).mutation(({ ctx, input }) => sendTestEvent(ctx.actor.accountId, input.endpointId));

export const redeliverProcedure = dashboardProcedure.input(z.object({ deliveryId: z.uuid() })).mutation(({ ctx, input }) => redeliver(ctx.actor.accountId, input.deliveryId));
