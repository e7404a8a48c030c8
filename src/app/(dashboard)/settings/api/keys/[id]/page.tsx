// Settings → API access → a key: what it is, roll and revoke, its calls and credits per day, and its request log.
import { KeyFactsAndActions } from '@/components/api-keys/key-actions';
import { KeyUsagePanel } from '@/components/api-keys/key-usage-panel';
import { serverModules } from '@/app/server-modules';
import { readKeyView } from './key-view';

export const metadata = { title: 'Key usage · ASO Analytics' };

export default async function KeyUsagePage({ params }: { params: Promise<{ id: string }> }) {
  const [{ apiKey, usage, calls, apps }, { USAGE_LEDGER_DAYS }] = await Promise.all([
    readKeyView((await params).id),
    serverModules(),
  ]);
  return (
    <>
      {apiKey ? (
        <KeyFactsAndActions apiKey={apiKey} apps={apps} />
      ) : (
        <section className="panel">
          <h1>
            {usage.key.name}{' '}
            <span className="muted" style={{ fontSize: '1rem' }}>
              {usage.key.key}
            </span>
          </h1>
        </section>
      )}
      <KeyUsagePanel initialUsage={usage} initialCalls={calls} ledgerDays={USAGE_LEDGER_DAYS} />
    </>
  );
}
