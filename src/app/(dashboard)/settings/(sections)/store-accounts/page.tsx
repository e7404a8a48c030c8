import { StoreAccountsPanel } from '@/components/store-accounts/store-accounts-panel';
import { getDashboardCaller, requirePermission } from '@/app/server-modules';

export const metadata = { title: 'Store accounts · ASO Analytics' };

export default async function StoreAccountsPage() {
  await requirePermission('store-accounts.manage');
  const caller = await getDashboardCaller();
  return <StoreAccountsPanel accounts={await caller.storeAccounts.list()} />;
}
