'use client';
// Runs a call that ends by going to another page (a sign-up, joining or accepting an invitation): pending from the
// click until the next page shows, so that the button is not offered again while the navigation runs; its problem, if
// any, shown in place, and the button offered again.
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { errorMessage } from './trpc';

export function useCallThenGo() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run(call: () => Promise<unknown>, to: string) {
    setPending(true);
    setError(null);
    try {
      await call();
      router.replace(to);
      router.refresh();
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  }
  return { run, pending, error };
}

/** Signs the browser in with the password just chosen; `failure` is the message when that does not work. */
export async function signInWithNewPassword(email: string, password: string, failure: string): Promise<void> {
  const result = await signIn('credentials', { email, password, redirect: false });
  if (!result || result.error) throw new Error(failure);
}
