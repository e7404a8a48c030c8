// An app id that is not one of the account's: the same answer as an unknown id (404), with a way back.
import Link from 'next/link';

export default function AppNotFound() {
  return (
    <section className="panel" data-testid="app-not-found">
      <h1>App not found</h1>
      <p>Your account tracks no app with this id. It may have been removed, or the link belongs to another account.</p>
      <Link href="/apps" className="button primary">
        See your apps
      </Link>
    </section>
  );
}
