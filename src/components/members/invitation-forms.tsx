'use client';
// The two ways in from an invitation link: a signed-in person accepts (their session then acts for the account); a new
// person chooses a password, joins, and is signed in.
import { signIn } from 'next-auth/react';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { errorMessage, trpc } from '@/components/trpc';

export function AcceptInvitation({ token }: { token: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onAccept() {
    setPending(true);
    setError(null);
    try {
      await trpc.members.acceptInvitation.mutate({ token });
      router.replace('/settings/members');
      router.refresh();
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  }
  return (
    <div className="stack">
      {error && <p className="error" role="alert">{error}</p>}
      <button className="primary" type="button" disabled={pending} onClick={() => void onAccept()}>Accept the invitation</button>
    </div>
  );
}

export function JoinByInvitation({ token, email }: { token: string; email: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password'));
    setPending(true);
    setError(null);
    try {
      await trpc.members.join.mutate({ token, password, name: String(form.get('name') || '') || undefined });
      const result = await signIn('credentials', { email, password, redirect: false });
      if (!result || result.error) throw new Error('You joined; sign in with your new password.');
      router.replace('/settings/members');
      router.refresh();
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
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
      {error && <p className="error" role="alert">{error}</p>}
      <button className="primary" type="submit" disabled={pending}>Join</button>
    </form>
  );
}
