// Settings → Webhooks. Dashboard only.
import { z } from 'zod';
import { dashboardProcedure, router } from '@/server/api/trpc';
import {
  createEndpointInput,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  endpointView,
  listDeliveries,
  listWebhookEndpoints,
  redeliver,
  rotateWebhookSecret,
  sendTestEvent,
  setWebhookEndpointEnabled,
} from '@/server/services/webhooks/endpoints';

const endpointId = z.object({ endpointId: z.uuid() });

export const webhooksRouter = router({
  list: dashboardProcedure.query(({ ctx }) => listWebhookEndpoints(ctx.actor.accountId)),
  create: dashboardProcedure.input(createEndpointInput).mutation(async ({ ctx, input }) => {
    const { endpoint, secret } = await createWebhookEndpoint(ctx.actor.accountId, input);
    return { endpoint: endpointView(endpoint), secret };
  }),
  setEnabled: dashboardProcedure
    .input(endpointId.extend({ enabled: z.boolean() }))
    .mutation(({ ctx, input }) => setWebhookEndpointEnabled(ctx.actor.accountId, input.endpointId, input.enabled)),
  rotateSecret: dashboardProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
    const { secret, previousSecretUntil } = await rotateWebhookSecret(ctx.actor.accountId, input.endpointId);
    return { secret, previousSecretUntil: previousSecretUntil.toISOString() };
  }),
  delete: dashboardProcedure.input(endpointId).mutation(async ({ ctx, input }) => {
    await deleteWebhookEndpoint(ctx.actor.accountId, input.endpointId);
    return { deleted: true };
  }),
  deliveries: dashboardProcedure.input(endpointId).query(({ ctx, input }) => listDeliveries(ctx.actor.accountId, input.endpointId)),
  sendTest: dashboardProcedure.input(endpointId).mutation(({ ctx, input }) => sendTestEvent(ctx.actor.accountId, input.endpointId)),
  redeliver: dashboardProcedure.input(z.object({ deliveryId: z.uuid() })).mutation(({ ctx, input }) => redeliver(ctx.actor.accountId, input.deliveryId)),
});
