// Settings → API access → a key: its calls and credits per day, and its request log.
import { KeyUsagePanel } from '@/components/api-keys/key-usage-panel';
import { serverModules } from '@/app/server-modules';
import { readKeyView } from './key-view';

export const metadata = { title: 'Key usage · ASO Analytics' };

export default async function KeyUsagePage({ params }: { params: Promise<{ id: string }> }) {
  const [{ usage, calls }, { USAGE_LEDGER_DAYS }] = await Promise.all([
    readKeyView((await params).id),
    serverModules(),
  ]);
  return <KeyUsagePanel initialUsage={usage} initialCalls={calls} ledgerDays={USAGE_LEDGER_DAYS} />;
}
