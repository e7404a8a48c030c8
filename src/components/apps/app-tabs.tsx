'use client';
// The views of one app, as links: each view has its own address, so it can be bookmarked and shared. The storefront
// chosen on one view travels to the next.
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';

const VIEWS = [
  { path: '', label: 'Overview' },
  { path: '/opportunities', label: 'Opportunities' },
  { path: '/keyword-spy', label: 'Keyword spy' },
  { path: '/research', label: 'Research' },
  { path: '/competitors', label: 'Competitors' },
  { path: '/ratings', label: 'Ratings' },
  { path: '/category-rank', label: 'Category rank' },
  { path: '/metadata', label: 'Metadata' },
  { path: '/reviews', label: 'Reviews' },
];

export function AppTabs({ appId }: { appId: string }) {
  const pathname = usePathname();
  const country = useSearchParams().get('country');
  const base = `/apps/${appId}`;
  return (
    <nav className="tabs" aria-label="App views">
      {VIEWS.map((view) => {
        const href = `${base}${view.path}`;
        return (
          <Link
            key={view.path}
            href={country ? `${href}?country=${encodeURIComponent(country)}` : href}
            aria-current={pathname === href ? 'page' : undefined}
          >
            {view.label}
          </Link>
        );
      })}
    </nav>
  );
}
