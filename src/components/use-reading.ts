'use client';
// Runs a dashboard read (or any call): tracks that it is pending and shows its problem as a message in place.
import { useState } from 'react';
import { errorMessage } from './trpc';

export function useReading() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(work: () => Promise<void>) {
    setPending(true);
    setError(null);
    try {
      await work();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }
  return { run, pending, error };
}
