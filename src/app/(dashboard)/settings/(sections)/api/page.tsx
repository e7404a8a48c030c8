import { ApiKeysPanel } from '@/components/api-keys/api-keys-panel';
import { ConnectedAppsPanel } from '@/components/api-keys/connected-apps-panel';
import { ResetTestData } from '@/components/api-keys/reset-test-data';
import { formatNumber } from '@/components/format';
import { UsagePanel } from '@/components/usage/usage-panel';
import { CopyButton } from '@/components/common/copy-button';
import { getDashboardCaller, requirePermission, serverModules } from '@/app/server-modules';

export const metadata = { title: 'API access · ASO Analytics' };

export default async function ApiAccessPage() {
  await requirePermission('keys.manage');
  const caller = await getDashboardCaller();
  const [account, keys, connectedApps, usage, apps, { pageOrigin, USAGE_LEDGER_DAYS, MCP_PATH }] = await Promise.all([
    caller.account.get(),
    caller.apiKeys.list(),
    caller.connectedApps.list(),
    caller.usage.get({}),
    caller.apps.list({}),
    serverModules(),
  ]);
  const { requireKeyExpiry } = await caller.apiKeys.expiryPolicy();
  // In test mode the page is the sandbox's: test mode's own allowance, open to every plan.
  const testMode = !account.livemode;
  const plan = testMode ? { label: 'Test mode', apiAccess: true } : account.plan;
  const creditLimit = testMode ? usage.limit : account.creditLimit;
  const allowance = creditLimit === null ? 'Unlimited' : formatNumber(creditLimit);
  const baseUrl = `${pageOrigin()}/api/public/v1`;
  return (
    <>
      <section className="panel">
        <h1>API access</h1>
        <div className="stats">
          <div>
            <div className="muted">Plan</div>
            <div className="stat" data-testid="plan-label">
              {plan.label}
              {!testMode && account.trial ? ' (trial)' : ''}
            </div>
          </div>
          <div>
            <div className="muted">Monthly credit allowance</div>
            <div className="stat" data-testid="plan-allowance">
              {plan.apiAccess ? allowance : 'No API access'}
            </div>
          </div>
        </div>
        <div className="row" style={{ alignItems: 'center' }}>
          <span className="muted">Base URL</span>
          <code data-testid="base-url">{baseUrl}</code>
          <CopyButton text={baseUrl} label="Copy base URL" what="The base URL" testId="copy-base-url" />
        </div>
        <p className="muted">
          Call it with <code>Authorization: Bearer {testMode ? 'svc_test_' : 'svc_live_'}…</code>. Read-only keys may
          call every GET endpoint; read-write keys may also add apps, keywords and competitors.
        </p>
      </section>
      {plan.apiAccess && <UsagePanel usage={usage} ledgerDays={USAGE_LEDGER_DAYS} />}
      <ApiKeysPanel
        initialKeys={keys}
        apiAccess={plan.apiAccess}
        planLabel={plan.label}
        baseUrl={baseUrl}
        apps={apps.map((app) => ({ id: app.id, name: app.name, store: app.store }))}
        requireKeyExpiry={requireKeyExpiry}
      />
      {testMode ? (
        <ResetTestData />
      ) : (
        <ConnectedAppsPanel
          connectedApps={connectedApps}
          apps={apps.map((app) => ({ id: app.id, name: app.name, store: app.store }))}
          mcpUrl={`${pageOrigin()}${MCP_PATH}`}
        />
      )}
    </>
  );
}
