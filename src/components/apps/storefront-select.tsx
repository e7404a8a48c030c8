'use client';
// Chooses the storefront a view shows; the choice is the page's `country` parameter, so it is in the URL.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';

export function StorefrontSelect({ storefronts, current }: { storefronts: string[]; current: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  if (storefronts.length < 2) return <span className="muted">Storefront {current}</span>;
  return (
    <label style={{ flexDirection: 'row', alignItems: 'center', gap: '0.4rem' }}>
      Storefront
      <select
        value={current}
        data-testid="storefront-select"
        onChange={(event) => {
          const next = new URLSearchParams(params);
          next.set('country', event.target.value);
          router.push(`${pathname}?${next}`, { scroll: false });
        }}
      >
        {storefronts.map((country) => (
          <option key={country} value={country}>{country}</option>
        ))}
      </select>
    </label>
  );
}
