'use client';
// Rolling and revoking a key, as the keys' table and a key's own page both offer them: the calls, their toasts, what
// their confirmations say, and the new secret shown once.
import type { ReactNode, RefObject } from 'react';
import { toast } from 'sonner';
import { NewSecret } from '@/components/common/new-secret';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import type { ApiKeyOutput } from '@/server/api/routers/api-keys/api-keys.schema';

const GRACE_PERIODS = [
  { value: 'now', label: 'End the old secret now' },
  { value: '1h', label: 'Keep the old secret for 1 hour' },
  { value: '24h', label: 'Keep the old secret for 24 hours' },
  { value: '7d', label: 'Keep the old secret for 7 days' },
] as const;
export type GracePeriod = (typeof GRACE_PERIODS)[number]['value'];

type KeyNamed = Pick<ApiKeyOutput, 'id' | 'name' | 'displayPrefix' | 'lastFour'>;

export async function revokeKey(key: KeyNamed): Promise<void> {
  await trpc.apiKeys.revoke.mutate({ keyId: key.id });
  toast.success(
    `Key “${key.name}” revoked: requests with ${key.displayPrefix}…${key.lastFour} are refused from now on`,
  );
}

/** Rolls the key; the new key, its secret shown once, and what becomes of the old one. */
export async function rollKey(
  key: KeyNamed,
  grace: GracePeriod,
): Promise<{ secret: string; keyId: string; name: string; note: string }> {
  const result = await trpc.apiKeys.roll.mutate({ keyId: key.id, gracePeriod: grace });
  toast.success(`Key “${key.name}” rolled`);
  return {
    secret: result.secret,
    keyId: result.key.id,
    name: result.key.name,
    note:
      grace === 'now'
        ? 'The old secret no longer works.'
        : `The old secret works until ${formatInstant(result.previous.expiresAt)}.`,
  };
}

export function RollDescription() {
  return (
    <p>
      A new secret with the same name, scope and expiry is issued. The old secret can keep working for a while, so you
      can deploy the new one.
    </p>
  );
}

export function RevokeDescription({ apiKey }: { apiKey: Pick<ApiKeyOutput, 'displayPrefix' | 'lastFour'> }) {
  return (
    <p>
      Requests with{' '}
      <code>
        {apiKey.displayPrefix}…{apiKey.lastFour}
      </code>{' '}
      will be refused at once. This cannot be undone.
    </p>
  );
}

export function GraceSelect({ value, onChange }: { value: GracePeriod; onChange: (grace: GracePeriod) => void }) {
  return (
    <label>
      Old secret
      <select value={value} onChange={(event) => onChange(event.target.value as GracePeriod)} name="gracePeriod">
        {GRACE_PERIODS.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A key's secret, shown once (a new key's, a rolled key's successor's): only its hash is kept. */
export function NewKeySecret({
  title,
  secret,
  note,
  onSaved,
  boxRef,
  children,
}: {
  title: ReactNode;
  secret: string;
  /** What became of the key it replaces, after a roll. */
  note?: string;
  onSaved: () => void;
  boxRef: RefObject<HTMLDivElement | null>;
  children: ReactNode;
}) {
  return (
    <NewSecret
      title={title}
      secret={secret}
      what="Secret"
      note={<>We store only a hash of it. {note}</>}
      onSaved={onSaved}
      boxRef={boxRef}
      testId="new-secret"
      valueTestId="secret-value"
    >
      {children}
    </NewSecret>
  );
}
