'use client';
// Chooses the storefront the whole app page shows: its `country` parameter, so the choice is in the URL and travels
// from view to view (AppTabs). A storefront the app is not tracked in shows its primary one, as the views do.
import { usePathname, useRouter, useSearchParams } from 'next/navigation';

/** The storefront the page shows: the URL's, when the app is tracked there; else the primary one. */
export function useShownStorefront(storefronts: string[], primary: string): string {
  const asked = useSearchParams().get('country')?.toUpperCase();
  return asked && storefronts.includes(asked) ? asked : primary;
}

export function StorefrontSelect({ storefronts, primary }: { storefronts: string[]; primary: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const current = useShownStorefront(storefronts, primary);
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
          <option key={country} value={country}>
            {country}
            {country === primary ? ' (primary)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
