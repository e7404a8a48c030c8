'use client';
// The account switcher: a person in several accounts (an agency's clients) moves the dashboard to another without
// signing in again. The session acts for the chosen account from its next request (members.switchAccount).
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { errorMessage, trpc } from '@/components/trpc';

export function AccountSwitcher({
  accounts,
}: {
  accounts: { accountId: string; accountName: string; current: boolean }[];
}) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const current = accounts.find((account) => account.current)?.accountId ?? '';
  async function onChange(accountId: string) {
    setError(null);
    try {
      await trpc.members.switchAccount.mutate({ accountId });
      startTransition(() => router.refresh());
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }
  return (
    <label className="account-switcher">
      <span className="visually-hidden">Account</span>
      <select
        value={current}
        disabled={pending}
        onChange={(event) => void onChange(event.target.value)}
        data-testid="account-switcher"
      >
        {accounts.map((account) => (
          <option key={account.accountId} value={account.accountId}>
            {account.accountName}
          </option>
        ))}
      </select>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
