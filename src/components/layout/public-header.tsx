// The header of the pages anyone may read: the landing page, sign-in and sign-up, and the docs.
import Link from 'next/link';
import { SiteHeader } from './site-header';

const LINKS = [
  { href: '/docs', label: 'API docs' },
  { href: '/docs/api', label: 'API reference' },
  { href: '/docs/webhooks', label: 'Webhooks' },
  { href: '/docs/problems', label: 'Problem types' },
];

export function PublicHeader() {
  return (
    <SiteHeader links={LINKS}>
      <Link href="/apps">Dashboard</Link>
      <Link href="/sign-up" className="button primary">
        Start a free trial
      </Link>
    </SiteHeader>
  );
}
