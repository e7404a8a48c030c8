import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { SiteHeader } from '@/components/layout/site-header';
import { TestModeSwitch } from '@/components/layout/test-mode-switch';
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
  const [account, keys] = await Promise.all([caller.account.get(), caller.apiKeys.list()]);
  // Active keys (not rolled: their end belongs to the roll) that stop working within 7 days, as `api_key.expiring` says.
  const soon = Date.now() + 7 * 86_400_000;
  const expiring = keys.filter((key) => key.status === 'active' && !key.rolledAt && key.expiresAt && Date.parse(key.expiresAt) <= soon);
  return (
    <>
      <SiteHeader links={LINKS}>
        <span className="muted" data-testid="account-name">
          {account.name} · {account.plan.label}
          {account.trial && ` trial until ${account.trial.endsAt.slice(0, 10)}`}
        </span>
        <TestModeSwitch testMode={!account.livemode} />
        <SignOutButton />
      </SiteHeader>
      {!account.livemode && (
        <p className="test-mode-banner" role="status" data-testid="test-mode-banner">
          <strong>Test mode.</strong> You are looking at test data: the sandbox’s sample apps, <code>svc_test_</code> keys, test
          webhook endpoints and usage. Nothing here touches your live apps, keys or credits.
        </p>
      )}
      <main id="content">
        {expiring.length > 0 && (
          <p className="notice" role="status" data-testid="expiring-keys-banner">
            {expiring.length === 1 ? `API key “${expiring[0]!.name}” expires` : `${expiring.length} API keys expire`} within 7 days:{' '}
            <Link href="/settings/api">roll {expiring.length === 1 ? 'it' : 'them'} under API access</Link> before the calls that use {expiring.length === 1 ? 'it' : 'them'} fail.
          </p>
        )}
        {children}
      </main>
    </>
  );
}
