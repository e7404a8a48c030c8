import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { getDashboardCaller } from '@/app/server-modules';

export const dynamic = 'force-dynamic';

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const caller = await getDashboardCaller();
  const account = await caller.account.get();
  return (
    <>
      <header className="top">
        <span className="brand">ASO Analytics</span>
        <nav>
          <Link href="/apps">Apps</Link>
          <Link href="/settings/api">Settings → API access</Link>
          <Link href="/settings/webhooks">Webhooks</Link>
          <Link href="/settings/billing">Plan & billing</Link>
          <Link href="/docs">API docs</Link>
          <Link href="/docs/api">API reference</Link>
        </nav>
        <span className="muted" data-testid="account-name">
          {account.name} · {account.plan.label}
          {account.trial && ` trial until ${account.trial.endsAt.slice(0, 10)}`}
        </span>
        <SignOutButton />
      </header>
      <main>{children}</main>
    </>
  );
}
