import Link from 'next/link';
import type { ReactNode } from 'react';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { SiteHeader } from '@/components/layout/site-header';
import { TestModeSwitch } from '@/components/layout/test-mode-switch';
import { AccountSwitcher } from '@/components/layout/account-switcher';
import { getDashboardCaller, serverModules } from '@/app/server-modules';

export const dynamic = 'force-dynamic';

/** The navigation; a page the member's role cannot use is not offered (docs/api-decisions.md, "Teams"). */
const LINKS = [
  { href: '/apps', label: 'Apps', permission: 'data.read' },
  { href: '/exports', label: 'Exports', permission: 'data.read' },
  { href: '/settings/api', label: 'API access', permission: 'keys.manage' },
  { href: '/settings/webhooks', label: 'Webhooks', permission: 'webhooks.manage' },
  { href: '/settings/store-accounts', label: 'Stores', permission: 'store-accounts.manage' },
  { href: '/settings/security', label: 'Security log', permission: 'security-log.read' },
  { href: '/settings/members', label: 'Members', permission: 'account.read' },
  { href: '/settings/billing', label: 'Plan & billing', permission: 'billing.manage' },
  { href: '/docs', label: 'API docs', permission: 'account.read' },
  { href: '/docs/api', label: 'API reference', permission: 'account.read' },
] as const;

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const caller = await getDashboardCaller();
  const { roleAllows } = await serverModules();
  const [account, memberships] = await Promise.all([caller.account.get(), caller.members.memberships()]);
  const { role } = account;
  const keys = roleAllows(role, 'keys.manage') ? await caller.apiKeys.list() : [];
  // Active keys (not rolled: their end belongs to the roll) that stop working within 7 days, as `api_key.expiring` says.
  const soon = Date.now() + 7 * 86_400_000;
  const expiring = keys.filter(
    (key) => key.status === 'active' && !key.rolledAt && key.expiresAt && Date.parse(key.expiresAt) <= soon,
  );
  return (
    <>
      <SiteHeader
        links={LINKS.filter((link) => roleAllows(role, link.permission)).map(({ href, label }) => ({ href, label }))}
      >
        <span className="muted" data-testid="account-name">
          {account.name} · {account.plan.label}
          {account.trial && ` trial until ${account.trial.endsAt.slice(0, 10)}`}
        </span>
        {memberships.length > 1 && (
          <AccountSwitcher
            accounts={memberships.map(({ accountId, accountName, current }) => ({ accountId, accountName, current }))}
          />
        )}
        <TestModeSwitch testMode={!account.livemode} />
        <SignOutButton />
      </SiteHeader>
      {!account.livemode && (
        <p className="test-mode-banner" role="status" data-testid="test-mode-banner">
          <strong>Test mode.</strong> You are looking at test data: the sandbox’s sample apps, <code>svc_test_</code>{' '}
          keys, test webhook endpoints and usage. Nothing here touches your live apps, keys or credits.
        </p>
      )}
      <main id="content" className="dashboard">
        {expiring.length > 0 && (
          <p className="notice" role="status" data-testid="expiring-keys-banner">
            {expiring.length === 1 ? `API key “${expiring[0]!.name}” expires` : `${expiring.length} API keys expire`}{' '}
            within 7 days:{' '}
            <Link href="/settings/api">roll {expiring.length === 1 ? 'it' : 'them'} under API access</Link> before the
            calls that use {expiring.length === 1 ? 'it' : 'them'} fail.
          </p>
        )}
        {children}
      </main>
    </>
  );
}
