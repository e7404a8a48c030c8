// One app: its name and storefronts, what changes it (storefronts, removal), its history's loading, and the tabs of
// its views. Every view reads through the same procedures as the public API, so its numbers are the API's.
import { requirePermission } from '@/app/server-modules';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { AddStorefrontForm, RemoveStorefrontButton } from '@/components/apps/app-actions';
import { StorefrontSelect } from '@/components/apps/storefront-select';
import { AppTabs } from '@/components/apps/app-tabs';
import { BackfillProgress } from '@/components/apps/backfill-progress';
import { DataFreshness } from '@/components/apps/data-freshness';
import { formatStore } from '@/components/format';
import { readApp } from './app-view';

export default async function AppLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: ReactNode;
}) {
  await requirePermission('data.read');
  const { app, caller } = await readApp((await params).id);
  const storefronts = await caller.apps.storefrontHealth({ id: app.id });
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted" style={{ marginBottom: '0.75rem' }}>
        <Link href="/apps">Apps</Link> / {app.name}
      </nav>
      <section className="panel">
        <h1 data-testid="app-name">{app.name}</h1>
        <p className="muted">
          {app.developer} · {formatStore(app.store)} · {app.category} · {app.primaryCountry} ·{' '}
          <span className="mono">{app.id}</span>
        </p>
        <p className="muted" data-testid="storefronts">
          Tracked in {app.storefronts.join(', ')} ·{' '}
          {app.dataThrough ? `data through ${app.dataThrough}` : 'no data yet'}
        </p>
        <DataFreshness lastObservedAt={app.lastObservedAt} storefronts={storefronts} now={new Date()} />
        <div className="row" style={{ justifyContent: 'space-between' }}>
          <div className="row">
            <StorefrontSelect storefronts={app.storefronts} primary={app.primaryCountry} />
            <RemoveStorefrontButton appId={app.id} storefronts={app.storefronts} primary={app.primaryCountry} />
          </div>
          <AddStorefrontForm appId={app.id} />
        </div>
      </section>
      {app.backfill && <BackfillProgress appId={app.id} initial={app.backfill} />}
      <AppTabs appId={app.id} />
      {children}
    </>
  );
}
