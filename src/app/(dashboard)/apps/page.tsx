import Link from 'next/link';
import { getDashboardCaller } from '@/app/server-modules';
import { formatInstant } from '@/components/format';

export const metadata = { title: 'Apps · ASO Analytics' };

export default async function AppsPage() {
  const caller = await getDashboardCaller();
  const apps = await caller.apps.list({});
  return (
    <div className="panel">
      <h2>Tracked apps</h2>
      {apps.length === 0 ? (
        <p className="muted">Your account tracks no apps yet.</p>
      ) : (
        <table data-testid="apps-table">
          <thead>
            <tr>
              <th>App</th>
              <th>Store</th>
              <th>Category</th>
              <th>Country</th>
              <th>Tracked keywords</th>
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
                <td className="mono">{app.id}</td>
                <td>{formatInstant(app.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
