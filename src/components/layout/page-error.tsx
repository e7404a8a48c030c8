'use client';
// A dashboard page that failed to render: what happened, a way to try again, and the request id to quote to support.
// The page's frame (header, navigation) stays; the error itself is logged on the server.
import Link from 'next/link';
import { useEffect, useRef } from 'react';

export function PageError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="panel" role="alert" data-testid="page-error">
      <h1 ref={heading} tabIndex={-1}>
        This page could not be shown
      </h1>
      <p>
        Something went wrong on our side while reading its data. Nothing you entered was lost. Try again in a moment.
      </p>
      {error.digest && (
        <p className="muted">
          Reference: <code>{error.digest}</code>
        </p>
      )}
      <div className="row">
        <button type="button" className="primary" onClick={reset}>
          Try again
        </button>
        <Link href="/apps" className="button">
          Back to Apps
        </Link>
      </div>
    </section>
  );
}
