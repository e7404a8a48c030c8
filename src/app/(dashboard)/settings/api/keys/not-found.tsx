// A key id that is not one of the account's: the same answer as an unknown id (404), with a way back.
import Link from 'next/link';

export default function KeyNotFound() {
  return (
    <section className="panel" data-testid="key-not-found">
      <h1>Key not found</h1>
      <p>Your account has no API key with this id. The link may belong to another account.</p>
      <Link href="/settings/api" className="button primary">
        See your keys
      </Link>
    </section>
  );
}
