'use client';
// The history backfill of an app just added, on its page: a progress bar while it runs, then the page reloads with
// the app's data. Asks for the app every second and a half until the backfill has finished.
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { trpc } from '@/components/trpc';

interface Backfill {
  status: 'queued' | 'running' | 'completed' | 'failed';
  daysDone: number;
  daysTotal: number;
}

const POLL_MS = 1500;

export function BackfillProgress({ appId, initial }: { appId: string; initial: Backfill }) {
  const router = useRouter();
  const [backfill, setBackfill] = useState(initial);
  const finished = backfill.status === 'completed' || backfill.status === 'failed';
  useEffect(() => {
    if (finished) return;
    const timer = setInterval(() => {
      trpc.apps.get.query({ id: appId }).then(
        (app) => {
          if (!app.backfill) return;
          setBackfill(app.backfill);
          if (app.backfill.status === 'completed' || app.backfill.status === 'failed') router.refresh();
        },
        () => {},
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [appId, finished, router]);

  if (backfill.status === 'failed') {
    return (
      <p className="notice" role="status" data-testid="backfill-failed">
        The store did not answer while we loaded this app’s history. The daily refresh (00:15 UTC) tries again.
      </p>
    );
  }
  if (backfill.status === 'completed') return null;
  // Every day is observed first, then all of them are written at once: that last step has no count of its own.
  const saving = backfill.status === 'running' && backfill.daysTotal > 0 && backfill.daysDone >= backfill.daysTotal;
  const state =
    backfill.status === 'queued'
      ? 'Waiting to start'
      : saving
        ? `Saving ${backfill.daysTotal} days of history`
        : `${backfill.daysDone} of ${backfill.daysTotal} days read from the store`;
  return (
    <section className="panel" data-testid="backfill" aria-labelledby="backfill-title">
      <h2 id="backfill-title">Loading this app’s history</h2>
      {saving || backfill.status === 'queued' ? (
        <progress className="progress" aria-label="History loading" />
      ) : (
        <progress
          className="progress"
          max={backfill.daysTotal || 1}
          value={backfill.daysDone}
          aria-label="History read from the store"
        />
      )}
      <p role="status" data-testid="backfill-status">
        {state}… Keywords, ranks, ratings and reviews appear here when it is done; you can leave this page meanwhile.
      </p>
    </section>
  );
}
