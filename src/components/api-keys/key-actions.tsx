'use client';
// A key's own page: what the key is (scope, status, restrictions, dates) and its two lasting actions, roll and revoke,
// each behind its confirmation as in the keys' table. Restricting stays in the table, beside the other keys.
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useRef, useState } from 'react';
import { ConfirmDialog, focusable } from '@/components/common/confirm-dialog';
import { formatInstant } from '@/components/format';
import type { ApiKeyOutput } from '@/server/api/routers/api-keys/api-keys.schema';
import {
  GraceSelect,
  type GracePeriod,
  NewKeySecret,
  RevokeDescription,
  RollDescription,
  revokeKey,
  rollKey,
} from './key-lifecycle';
import { describeRestrictions, type AppChoice } from './restriction-fields';

export function KeyFactsAndActions({ apiKey, apps }: { apiKey: ApiKeyOutput; apps: AppChoice[] }) {
  const router = useRouter();
  const [confirming, setConfirming] = useState<'roll' | 'revoke' | null>(null);
  const [grace, setGrace] = useState<GracePeriod>('24h');
  const [revealed, setRevealed] = useState<Awaited<ReturnType<typeof rollKey>> | null>(null);
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
    if (confirming === 'revoke') await revokeKey(apiKey);
    else setRevealed(await rollKey(apiKey, grace));
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
        <NewKeySecret
          title={<>The new secret of “{apiKey.name}”</>}
          secret={revealed.secret}
          note={revealed.note}
          onSaved={() => {
            setRevealed(null);
            heading.current?.focus();
          }}
          boxRef={secretBox}
        >
          <p>
            The new secret is a key of its own: <Link href={`/settings/api/keys/${revealed.keyId}`}>its page</Link>.
          </p>
        </NewKeySecret>
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
        description={confirming === 'roll' ? <RollDescription /> : <RevokeDescription apiKey={apiKey} />}
        onConfirm={onConfirm}
      >
        {confirming === 'roll' && <GraceSelect value={grace} onChange={setGrace} />}
      </ConfirmDialog>
    </section>
  );
}
