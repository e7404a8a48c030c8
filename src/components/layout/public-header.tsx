// The header of the pages anyone may read: the landing page, sign-in and sign-up, the docs. It knows who is signed in:
// a signed-in user is offered the dashboard, not a trial. A session that cannot be read (the database away) is shown
// as signed out rather than failing a public page.
import Link from 'next/link';
import { getSignedInActor } from '@/app/server-modules';
import { SiteHeader } from './site-header';

const LINKS = [
  { href: '/docs', label: 'API docs' },
  { href: '/docs/api', label: 'API reference' },
  { href: '/docs/mcp', label: 'MCP' },
  { href: '/docs/webhooks', label: 'Webhooks' },
  { href: '/docs/problems', label: 'Problem types' },
  { href: '/docs/data', label: 'Data' },
  { href: '/docs/changelog', label: 'Changelog' },
];

export async function PublicHeader() {
  const signedIn = await getSignedInActor('live').then(Boolean, () => false);
  return (
    <SiteHeader links={LINKS}>
      {signedIn ? (
        <Link href="/apps" className="button primary">
          Dashboard
        </Link>
      ) : (
        <>
          <Link href="/sign-in">Sign in</Link>
          <Link href="/sign-up" className="button primary">
            Start a free trial
          </Link>
        </>
      )}
    </SiteHeader>
  );
}
