import Link from 'next/link';
import { getDashboardCaller, serverModules } from '@/app/server-modules';
import { AddAppForm } from '@/components/apps/add-app-form';
import { formatInstant } from '@/components/format';
import { FirstSteps } from '@/components/onboarding/first-steps';

export const metadata = { title: 'Apps · ASO Analytics' };

export default async function AppsPage() {
  const caller = await getDashboardCaller();
  const [apps, onboarding, { pageOrigin }] = await Promise.all([caller.apps.list({}), caller.account.onboarding(), serverModules()]);
  const setUp = onboarding.appAdded && onboarding.keyCreated && onboarding.firstCall;
  return (
    <>
    {!setUp && <FirstSteps initial={onboarding} baseUrl={`${pageOrigin()}/api/public/v1`} />}
    <AddAppForm />
    <div className="panel">
      <h2>Tracked apps</h2>
      {apps.length === 0 ? (
        <p className="muted">Your account tracks no apps yet: add one above by its store URL or name.</p>
      ) : (
        <table data-testid="apps-table">
          <thead>
            <tr>
              <th>App</th>
              <th>Store</th>
              <th>Category</th>
              <th>Country</th>
              <th>Tracked keywords</th>
              <th>Data</th>
              <th>App id (for the API)</th>
              <th>Added</th>
            </tr>
          </thead>
          <tbody>
            {apps.map((app) => (
              <tr key={app.id}>
                <td>
                  <Link href={`/apps/${app.id}`}>{app.name}</Link>{' '}
                  <a href={app.storeUrl} rel="noreferrer" target="_blank" className="muted" aria-label={`${app.name} in the store`}>↗</a>
                  <div className="muted">{app.developer}</div>
                </td>
                <td>{app.store === 'app_store' ? 'App Store' : 'Google Play'}</td>
                <td>{app.category}</td>
                <td>{app.primaryCountry}</td>
                <td>{app.trackedKeywords}</td>
                <td data-testid="app-data-status">
                  {app.backfill && (app.backfill.status === 'queued' || app.backfill.status === 'running')
                    ? app.backfill.status === 'queued' ? 'History queued' : `Loading history (${app.backfill.daysDone} of ${app.backfill.daysTotal} days read)`
                    : app.dataThrough ? `Through ${app.dataThrough}` : 'Not loaded yet'}
                </td>
                <td className="mono">{app.id}</td>
                <td>{formatInstant(app.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
    </>
  );
}
