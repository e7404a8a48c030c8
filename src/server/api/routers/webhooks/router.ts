// Settings → Webhooks: on the dashboard, and under /webhook-endpoints for a session token. Never for an API key.
import { router } from '@/server/api/trpc';
import {
  createWebhookEndpointProcedure,
  deleteWebhookEndpointProcedure,
  getWebhookEndpointProcedure,
  listDeliveriesProcedure,
  listWebhookEndpointsProcedure,
  redeliverProcedure,
  rotateWebhookSecretProcedure,
  sendTestEventProcedure,
  setWebhookEndpointEnabledProcedure,
  updateWebhookEndpointProcedure,
} from './webhooks.procedures';

export const webhooksRouter = router({
  list: listWebhookEndpointsProcedure,
  create: createWebhookEndpointProcedure,
  get: getWebhookEndpointProcedure,
  update: updateWebhookEndpointProcedure,
  setEnabled: setWebhookEndpointEnabledProcedure,
  rotateSecret: rotateWebhookSecretProcedure,
  delete: deleteWebhookEndpointProcedure,
  deliveries: listDeliveriesProcedure,
  sendTest: sendTestEventProcedure,
  redeliver: redeliverProcedure,
});
