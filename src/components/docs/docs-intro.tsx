// The opening panel of a docs page: the way back to the docs' start, the page's title, and what follows it.
import Link from 'next/link';
import type { ReactNode } from 'react';

export function DocsIntro({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="panel">
      <p className="muted">
        <Link href="/docs">API docs</Link>
      </p>
      <h1>{title}</h1>
      {children}
    </div>
  );
}
