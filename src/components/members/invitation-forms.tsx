'use client';
// The two ways in from an invitation link: a signed-in person accepts (their session then acts for the account); a new
// person chooses a password, joins, and is signed in.
import type { FormEvent } from 'react';
import { trpc } from '@/components/trpc';
import { signInWithNewPassword, useCallThenGo } from '@/components/use-call-then-go';

export function AcceptInvitation({ token }: { token: string }) {
  const { run, pending, error } = useCallThenGo();
  const onAccept = () => run(() => trpc.members.acceptInvitation.mutate({ token }), '/settings/members');
  return (
    <div className="stack">
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button className="primary" type="button" disabled={pending} onClick={() => void onAccept()}>
        Accept the invitation
      </button>
    </div>
  );
}

export function JoinByInvitation({ token, email }: { token: string; email: string }) {
  const { run, pending, error } = useCallThenGo();
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    await run(async () => {
      await trpc.members.join.mutate({ token, password, name: String(form.get('name') || '') || undefined });
      await signInWithNewPassword(email, password, 'You joined; sign in with your new password.');
    }, '/settings/members');
  }
  return (
    <form className="stack" onSubmit={onSubmit} aria-label="Join with a new password">
      <label>
        Name
        <input name="name" autoComplete="name" />
      </label>
      <label>
        Email
        <input name="email" type="email" value={email} readOnly />
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
        Join
      </button>
    </form>
  );
}
