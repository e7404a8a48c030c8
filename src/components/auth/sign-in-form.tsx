'use client';
import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { callbackPath } from './callback-path';

export function SignInForm() {
  const router = useRouter();
  const params = useSearchParams();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn('credentials', {
      email: form.get('email'),
      password: form.get('password'),
      redirect: false,
    });
    setPending(false);
    if (!result || result.error) {
      setError(
        result?.error === 'TooManySignInAttempts'
          ? 'Too many failed sign-ins from this network. Try again in 15 minutes, or from a browser you have signed in with before.'
          : result?.error === 'NoAccount'
            ? 'You are no longer a member of any account. Ask an account’s owner to invite you again.'
            : 'The email or password is not correct.',
      );
      return;
    }
    router.replace(callbackPath(params.get('callbackUrl')));
    router.refresh();
  }

  return (
    <form className="stack" onSubmit={onSubmit}>
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button className="primary" type="submit" disabled={pending}>
        {pending ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
