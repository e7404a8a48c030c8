'use client';
// A page's filter form whose choices are the page's address (reviews): a choice applies at once, as every filter of the
// dashboard does, by moving to the address the form makes. Without script, its button submits it.
import { usePathname, useRouter } from 'next/navigation';
import { useTransition, type ReactNode } from 'react';

export function AutoSubmitForm({ label, children }: { label: string; children: ReactNode }) {
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  return (
    <form
      method="get"
      className="row"
      aria-label={label}
      aria-busy={pending}
      onChange={(event) => event.currentTarget.requestSubmit()}
      onSubmit={(event) => {
        event.preventDefault();
        const params = new URLSearchParams();
        for (const [name, value] of new FormData(event.currentTarget)) if (value) params.set(name, String(value));
        startTransition(() => router.push(`${pathname}?${params}`, { scroll: false }));
      }}
    >
      {children}
      <noscript>
        <button type="submit">Apply</button>
      </noscript>
    </form>
  );
}
