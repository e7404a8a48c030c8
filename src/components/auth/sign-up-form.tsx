'use client';
import type { FormEvent } from 'react';
import { trpc } from '@/components/trpc';
import { signInWithNewPassword, useCallThenGo } from '@/components/use-call-then-go';

export function SignUpForm() {
  const { run, pending, error } = useCallThenGo();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = String(form.get('email'));
    const password = String(form.get('password'));
    await run(async () => {
      await trpc.account.signUp.mutate({ email, password, userName: String(form.get('name') || '') || undefined });
      await signInWithNewPassword(email, password, 'sign-in after sign-up failed');
    }, '/apps');
  }

  return (
    <form className="stack" onSubmit={onSubmit}>
      <label>
        Name
        <input name="name" autoComplete="name" />
      </label>
      <label>
        Email
        <input name="email" type="email" autoComplete="email" required />
      </label>
      <label>
        Password (at least 10 characters)
        <input name="password" type="password" autoComplete="new-password" minLength={10} required />
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button className="primary" type="submit" disabled={pending}>
        {pending ? 'Creating account…' : 'Create account'}
      </button>
    </form>
  );
}
