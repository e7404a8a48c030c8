import { WebhooksPanel } from '@/components/webhooks/webhooks-panel';
import { getDashboardCaller, requirePermission, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Webhooks · ASO Analytics' };

export default async function WebhooksPage() {
  await requirePermission('webhooks.manage');
  const { EVENT_DESCRIPTIONS, EVENT_TYPES } = await serverModules();
  const caller = await getDashboardCaller();
  const [account, endpoints] = await Promise.all([caller.account.get(), caller.webhooks.list()]);
  const deliveries = Object.fromEntries(
    await Promise.all(
      endpoints.map(
        async (endpoint) => [endpoint.id, await caller.webhooks.deliveries({ endpointId: endpoint.id })] as const,
      ),
    ),
  );
  return (
    <WebhooksPanel
      endpoints={endpoints}
      deliveries={deliveries}
      eventKinds={EVENT_TYPES.map((type) => ({ type, description: EVENT_DESCRIPTIONS[type] }))}
      livemode={account.livemode}
    />
  );
}
