import Link from 'next/link';
import { getDashboardCaller, requirePermission, serverModules } from '@/app/server-modules';
import { AddAppForm } from '@/components/apps/add-app-form';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant, formatStore } from '@/components/format';
import { FirstSteps } from '@/components/onboarding/first-steps';

export const metadata = { title: 'Apps · ASO Analytics' };

export default async function AppsPage() {
  await requirePermission('data.read');
  const caller = await getDashboardCaller();
  const [apps, onboarding, { pageOrigin }] = await Promise.all([
    caller.apps.list({}),
    caller.account.onboarding(),
    serverModules(),
  ]);
  const setUp = onboarding.appAdded && onboarding.keyCreated && onboarding.firstCall;
  return (
    <>
      <h1>Apps</h1>
      {!setUp && <FirstSteps initial={onboarding} baseUrl={`${pageOrigin()}/api/public/v1`} />}
      <AddAppForm />
      <section className="panel" aria-labelledby="tracked-apps-title">
        <h2 id="tracked-apps-title">Tracked apps</h2>
        {apps.length === 0 ? (
          <div className="empty" data-testid="apps-empty">
            <p>
              <strong>No apps yet.</strong>
            </p>
            <p className="muted">
              Add your app above by its App Store or Google Play URL, or search for it by name: its history loads in the
              background, and its keywords, ratings and reviews appear here.
            </p>
          </div>
        ) : (
          <TableScroll label="Tracked apps">
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
                      <a
                        href={app.storeUrl}
                        rel="noreferrer"
                        target="_blank"
                        className="muted"
                        aria-label={`${app.name} in the store`}
                      >
                        ↗
                      </a>
                      <div className="muted">{app.developer}</div>
                    </td>
                    <td>{formatStore(app.store)}</td>
                    <td>{app.category}</td>
                    <td>{app.primaryCountry}</td>
                    <td>{app.trackedKeywords}</td>
                    <td data-testid="app-data-status">
                      {app.backfill && (app.backfill.status === 'queued' || app.backfill.status === 'running')
                        ? app.backfill.status === 'queued'
                          ? 'History queued'
                          : `Loading history (${app.backfill.daysDone} of ${app.backfill.daysTotal} days read)`
                        : app.dataThrough
                          ? `Through ${app.dataThrough}`
                          : 'Not loaded yet'}
                    </td>
                    <td className="mono">{app.id}</td>
                    <td>{formatInstant(app.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </>
  );
}
