// A key's page: read before the settings' loading boundary streams, so that another account's key is a real 404.
import { requirePermission } from '@/app/server-modules';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { readKeyView } from './key-view';

export default async function KeyLayout({
  params,
  children,
}: {
  params: Promise<{ id: string }>;
  children: ReactNode;
}) {
  await requirePermission('keys.manage');
  const { usage } = await readKeyView((await params).id);
  return (
    <>
      <nav aria-label="Breadcrumb" className="muted" style={{ marginBottom: '0.75rem' }}>
        <Link href="/settings/api">API access</Link> / {usage.key.name}
      </nav>
      {children}
    </>
  );
}
