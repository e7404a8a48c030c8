'use client';
// Runs a dashboard mutation: tracks that it is pending, shows its problem as a message, and re-renders the page's
// server data once it succeeded.
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { errorMessage } from './trpc';

export function useAction(onStart?: () => void) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(action: () => Promise<void>) {
    setPending(true);
    setError(null);
    onStart?.();
    try {
      await action();
      router.refresh();
    } catch (caught) {
      setError(errorMessage(caught));
    } finally {
      setPending(false);
    }
  }
  return { run, pending, error, router };
}
