// Settings → Webhooks. Dashboard only.
import { router } from '@/server/api/trpc';
import { createWebhookEndpointProcedure, deleteWebhookEndpointProcedure, listDeliveriesProcedure, listWebhookEndpointsProcedure, redeliverProcedure, rotateWebhookSecretProcedure, sendTestEventProcedure, setWebhookEndpointEnabledProcedure } from './webhooks.procedures';

export const webhooksRouter = router({
  list: listWebhookEndpointsProcedure,
  create: createWebhookEndpointProcedure,
  setEnabled: setWebhookEndpointEnabledProcedure,
  rotateSecret: rotateWebhookSecretProcedure,
  delete: deleteWebhookEndpointProcedure,
  deliveries: listDeliveriesProcedure,
  sendTest: sendTestEventProcedure,
  redeliver: redeliverProcedure,
});
