'use client';
// A key's own page: what the key is (scope, status, restrictions, dates) and its two lasting actions, roll and revoke,
// each behind its confirmation as in the keys' table. Restricting stays in the table, beside the other keys.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog, focusable } from '@/components/common/confirm-dialog';
import { NewSecret } from '@/components/common/new-secret';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import type { ApiKeyOutput } from '@/server/api/routers/api-keys/api-keys.schema';
import { GRACE_PERIODS, type GracePeriod } from './api-keys-panel';
import { describeRestrictions, type AppChoice } from './restriction-fields';

export function KeyFactsAndActions({ apiKey, apps }: { apiKey: ApiKeyOutput; apps: AppChoice[] }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<'roll' | 'revoke' | null>(null);
  const [grace, setGrace] = useState<GracePeriod>('24h');
  const [revealed, setRevealed] = useState<{ secret: string; note: string; keyId: string } | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const secretBox = useRef<HTMLDivElement>(null);
  const status = apiKey.status === 'active' && apiKey.rolledAt ? 'rolled' : apiKey.status;
  const facts: [string, string][] = [
    ['Key', `${apiKey.displayPrefix}…${apiKey.lastFour}`],
    ['Scope', apiKey.scope],
    ['Restrictions', describeRestrictions(apiKey, apps).join('; ')],
    ['Created', formatInstant(apiKey.createdAt)],
    ['Last used', apiKey.lastUsedAt ? formatInstant(apiKey.lastUsedAt) : 'Never'],
    ['Expires', apiKey.expiresAt ? formatInstant(apiKey.expiresAt) : 'Never'],
  ];

  async function onConfirm() {
    if (confirming === 'revoke') {
      await trpc.apiKeys.revoke.mutate({ keyId: apiKey.id });
      toast.success(
        `Key “${apiKey.name}” revoked: requests with ${apiKey.displayPrefix}…${apiKey.lastFour} are refused`,
      );
    } else {
      const result = await trpc.apiKeys.roll.mutate({ keyId: apiKey.id, gracePeriod: grace });
      setRevealed({
        secret: result.secret,
        keyId: result.key.id,
        note:
          grace === 'now'
            ? 'The old secret no longer works.'
            : `The old secret works until ${formatInstant(result.previous.expiresAt)}.`,
      });
      toast.success(`Key “${apiKey.name}” rolled`);
    }
    router.refresh();
  }

  return (
    <section className="panel" aria-labelledby="key-title">
      <h1 id="key-title" ref={heading} tabIndex={-1}>
        {apiKey.name}{' '}
        <span className={`badge ${status}`} data-testid="key-page-status">
          {status}
        </span>
      </h1>
      {revealed && (
        <NewSecret
          title={<>The new secret of “{apiKey.name}”</>}
          secret={revealed.secret}
          what="Secret"
          note={<>We store only a hash of it. {revealed.note}</>}
          onSaved={() => {
            setRevealed(null);
            heading.current?.focus();
          }}
          boxRef={secretBox}
          testId="new-secret"
          valueTestId="secret-value"
        >
          <p>
            The new secret is a key of its own: <Link href={`/settings/api/keys/${revealed.keyId}`}>its page</Link>.
          </p>
        </NewSecret>
      )}
      <dl className="facts" data-testid="key-facts">
        {facts.map(([term, value]) => (
          <div key={term}>
            <dt className="muted">{term}</dt>
            <dd className={term === 'Key' ? 'mono' : undefined}>{value}</dd>
          </div>
        ))}
      </dl>
      {apiKey.status === 'active' && (
        <div className="row">
          {!apiKey.rolledAt && (
            <button
              type="button"
              onClick={() => {
                setGrace('24h');
                setConfirming('roll');
              }}
            >
              Roll
            </button>
          )}
          <button type="button" onClick={() => setConfirming('revoke')}>
            Revoke
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        testId="key-dialog"
        title={confirming === 'roll' ? `Roll key “${apiKey.name}”?` : `Revoke key “${apiKey.name}”?`}
        tone={confirming === 'revoke' ? 'danger' : 'primary'}
        confirmLabel={confirming === 'roll' ? 'Roll key' : 'Revoke key'}
        focusAfter={() => (revealed ? secretBox.current : focusable(heading.current))}
        description={
          confirming === 'roll' ? (
            <p>
              A new secret with the same name, scope and expiry is issued. The old secret can keep working for a while,
              so you can deploy the new one.
            </p>
          ) : (
            <p>
              Requests with{' '}
              <code>
                {apiKey.displayPrefix}…{apiKey.lastFour}
              </code>{' '}
              will be refused at once. This cannot be undone.
            </p>
          )
        }
        onConfirm={onConfirm}
      >
        {confirming === 'roll' && (
          <label>
            Old secret
            <select value={grace} onChange={(event) => setGrace(event.target.value as GracePeriod)} name="gracePeriod">
              {GRACE_PERIODS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
        )}
      </ConfirmDialog>
    </section>
  );
}
