import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { SiteHeader } from '@/components/layout/site-header';
import { getDashboardCaller } from '@/app/server-modules';

export const dynamic = 'force-dynamic';

const LINKS = [
  { href: '/apps', label: 'Apps' },
  { href: '/settings/api', label: 'API access' },
  { href: '/settings/webhooks', label: 'Webhooks' },
  { href: '/settings/security', label: 'Security log' },
  { href: '/settings/billing', label: 'Plan & billing' },
  { href: '/docs', label: 'API docs' },
  { href: '/docs/api', label: 'API reference' },
];

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const caller = await getDashboardCaller();
  const account = await caller.account.get();
  return (
    <>
      <SiteHeader links={LINKS}>
        <span className="muted" data-testid="account-name">
          {account.name} · {account.plan.label}
          {account.trial && ` trial until ${account.trial.endsAt.slice(0, 10)}`}
        </span>
        <SignOutButton />
      </SiteHeader>
      <main id="content">{children}</main>
    </>
  );
}
