'use client';
// Runs a dashboard mutation: tracks that it is pending, shows its problem as a message, and re-renders the page's
// server data once it succeeded.
import { useRouter } from 'next/navigation';
import { useReading } from './use-reading';

export function useAction(onStart?: () => void) {
  const router = useRouter();
  const { run: runReading, pending, error } = useReading();
  function run(action: () => Promise<void>) {
    return runReading(async () => {
      onStart?.();
      await action();
      router.refresh();
    });
  }
  return { run, pending, error, router };
}
