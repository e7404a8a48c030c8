import { ApiKeysPanel } from '@/components/api-keys/api-keys-panel';
import { formatNumber } from '@/components/format';
import { UsagePanel } from '@/components/usage/usage-panel';
import { getDashboardCaller } from '@/app/server-modules';

export const metadata = { title: 'API access · ASO Analytics' };

export default async function ApiAccessPage() {
  const caller = await getDashboardCaller();
  const [account, keys, usage] = await Promise.all([caller.account.get(), caller.apiKeys.list(), caller.usage.get({})]);
  const allowance = account.plan.monthlyCredits === null ? 'Unlimited' : formatNumber(account.plan.monthlyCredits);
  return (
    <>
      <section className="panel">
        <h2>API access</h2>
        <div className="row" style={{ gap: '3rem' }}>
          <div>
            <div className="muted">Plan</div>
            <div className="stat" data-testid="plan-label">{account.plan.label}</div>
          </div>
          <div>
            <div className="muted">Monthly credit allowance</div>
            <div className="stat" data-testid="plan-allowance">{account.plan.apiAccess ? allowance : 'No API access'}</div>
          </div>
        </div>
        <p className="muted">
          Call <code>/api/public/v1</code> with <code>Authorization: Bearer svc_live_…</code>. Read-only keys may call every GET
          endpoint; read-write keys may also add keywords and competitors.
        </p>
      </section>
      {account.plan.apiAccess && <UsagePanel usage={usage} />}
      <ApiKeysPanel initialKeys={keys} apiAccess={account.plan.apiAccess} planLabel={account.plan.label} />
    </>
  );
}
