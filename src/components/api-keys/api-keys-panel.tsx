'use client';
// Settings → API access: the keys table, create (secret shown once), revoke (confirmed) and roll (grace period).
import { CopyButton } from '@/components/common/copy-button';
import { useRef, useState, type FormEvent } from 'react';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';
import type { ApiKeyOutput } from '@/server/api/routers/api-keys/api-keys.schema';

const GRACE_PERIODS = [
  { value: 'now', label: 'End the old secret now' },
  { value: '1h', label: 'Keep the old secret for 1 hour' },
  { value: '24h', label: 'Keep the old secret for 24 hours' },
  { value: '7d', label: 'Keep the old secret for 7 days' },
] as const;
type GracePeriod = (typeof GRACE_PERIODS)[number]['value'];

/** The last day the picker offers: its end (23:59:59.999 UTC) is within a year of now. */
function latestExpiryDay(): string {
  return new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
}

interface Props {
  initialKeys: ApiKeyOutput[];
  apiAccess: boolean;
  planLabel: string;
  /** This deployment's public API base URL, for the ready-to-run first call. */
  baseUrl: string;
}

/** A first call with the new key: the account's apps. */
function firstCall(baseUrl: string, secret: string): string {
  return `curl -H "Authorization: Bearer ${secret}" ${baseUrl}/apps`;
}

export function ApiKeysPanel({ initialKeys, apiAccess, planLabel, baseUrl }: Props) {
  const { run, pending, error } = useAction();
  const [revealed, setRevealed] = useState<{ secret: string; name: string; note?: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const [confirming, setConfirming] = useState<{ kind: 'revoke' | 'roll'; key: ApiKeyOutput } | null>(null);
  const [grace, setGrace] = useState<GracePeriod>('24h');
  const dialog = useRef<HTMLDialogElement>(null);

  async function onCreate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const expires = String(form.get('expiresAt') || '');
    await run(async () => {
      const { key, secret } = await trpc.apiKeys.create.mutate({
        name: String(form.get('name')),
        scope: form.get('scope') === 'read-write' ? 'read-write' : 'read-only',
        expiresAt: expires ? new Date(`${expires}T23:59:59.999Z`).toISOString() : null,
      });
      setCopied(false);
      setRevealed({ secret, name: key.name });
      formElement.reset();
    });
  }

  function ask(kind: 'revoke' | 'roll', key: ApiKeyOutput) {
    setConfirming({ kind, key });
    setGrace('24h');
    dialog.current?.showModal();
  }

  function closeDialog() {
    dialog.current?.close();
    setConfirming(null);
  }

  async function onConfirm() {
    if (!confirming) return;
    const { kind, key } = confirming;
    closeDialog();
    await run(async () => {
      if (kind === 'revoke') {
        await trpc.apiKeys.revoke.mutate({ keyId: key.id });
      } else {
        const result = await trpc.apiKeys.roll.mutate({ keyId: key.id, gracePeriod: grace });
        setCopied(false);
        setRevealed({
          secret: result.secret,
          name: result.key.name,
          note: grace === 'now' ? 'The old secret no longer works.' : `The old secret works until ${formatInstant(result.previous.expiresAt)}.`,
        });
      }
    });
  }

  async function copySecret() {
    if (!revealed) return;
    await navigator.clipboard.writeText(revealed.secret).then(() => setCopied(true), () => setCopied(false));
  }

  return (
    <section className="panel">
      <h2>API keys</h2>
      {!apiAccess && (
        <p className="notice" data-testid="plan-required">
          Your account is on the {planLabel} plan, which has no API access. API keys come with the paid plans (Solo, Pro,
          Business, Agency and Enterprise): <a href="/settings/billing">choose a plan</a> to create keys.
        </p>
      )}

      {revealed && (
        <div className="secret" data-testid="new-secret" role="status">
          <strong>Your new key “{revealed.name}”</strong>
          <code data-testid="secret-value">{revealed.secret}</code>
          <p>
            <strong>Copy it now: you won’t see this secret again.</strong> We store only a hash of it. {revealed.note}
          </p>
          <p>Try it: this lists your apps.</p>
          <pre className="code-block" data-testid="first-call"><code>{firstCall(baseUrl, revealed.secret)}</code></pre>
          <div className="row">
            <CopyButton text={firstCall(baseUrl, revealed.secret)} label="Copy curl" testId="copy-first-call" />
          </div>
          <div className="row">
            <button type="button" onClick={copySecret}>{copied ? 'Copied' : 'Copy'}</button>
            <button type="button" onClick={() => setRevealed(null)}>I have saved it</button>
          </div>
        </div>
      )}

      <form className="row" onSubmit={onCreate} aria-label="Create key" style={{ margin: '1rem 0' }}>
        <label>
          Name
          <input name="name" required maxLength={100} placeholder="e.g. Reporting warehouse" disabled={!apiAccess} />
        </label>
        <label>
          Scope
          <select name="scope" defaultValue="read-only" disabled={!apiAccess}>
            <option value="read-only">Read-only</option>
            <option value="read-write">Read-write</option>
          </select>
        </label>
        <label>
          Expires (optional, end of day UTC, within a year)
          {/* The server holds the bound (MAX_KEY_LIFETIME_DAYS); the picker only offers the days within it. */}
          <input name="expiresAt" type="date" max={latestExpiryDay()} disabled={!apiAccess} suppressHydrationWarning />
        </label>
        <button className="primary" type="submit" disabled={!apiAccess || pending}>Create key</button>
      </form>
      {error && <p className="error" role="alert">{error}</p>}

      {initialKeys.length === 0 ? (
        <p className="muted">No keys yet.</p>
      ) : (
        <table data-testid="keys-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Scope</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {initialKeys.map((key) => (
              <tr key={key.id} data-key-prefix={key.displayPrefix}>
                <td>{key.name}</td>
                <td className="mono">{key.displayPrefix}…{key.lastFour}</td>
                <td>{key.scope}</td>
                <td>{formatInstant(key.createdAt)}</td>
                <td>
                  {key.lastUsedAt ? formatInstant(key.lastUsedAt) : 'Never'}
                  {key.lastUsedIp && <div className="muted mono">{key.lastUsedIp}</div>}
                </td>
                <td>{key.expiresAt ? formatInstant(key.expiresAt) : 'Never'}</td>
                <td>
                  <span className={`badge ${key.status === 'active' && key.rolledAt ? 'rolled' : key.status}`} data-testid="key-status">
                    {key.status === 'active' && key.rolledAt ? 'rolled' : key.status}
                  </span>
                </td>
                <td>
                  {key.status === 'active' && (
                    <div className="row">
                      {!key.rolledAt && (
                        <button type="button" onClick={() => ask('roll', key)} disabled={pending || !apiAccess}>Roll</button>
                      )}
                      <button type="button" className="danger" onClick={() => ask('revoke', key)} disabled={pending}>Revoke</button>
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}

      <dialog ref={dialog} onClose={() => setConfirming(null)} aria-label={confirming?.kind === 'roll' ? 'Roll key' : 'Revoke key'}>
        {confirming?.kind === 'revoke' && (
          <>
            <h3>Revoke “{confirming.key.name}”?</h3>
            <p>
              Requests with <code>{confirming.key.displayPrefix}…{confirming.key.lastFour}</code> will be refused at once. This
              cannot be undone.
            </p>
            <div className="row">
              <button type="button" className="danger solid" onClick={onConfirm}>Revoke key</button>
              <button type="button" onClick={closeDialog}>Cancel</button>
            </div>
          </>
        )}
        {confirming?.kind === 'roll' && (
          <>
            <h3>Roll “{confirming.key.name}”?</h3>
            <p>A new secret with the same name, scope and expiry is issued. The old secret can keep working for a while, so you can deploy the new one.</p>
            <label>
              Old secret
              <select value={grace} onChange={(event) => setGrace(event.target.value as GracePeriod)} name="gracePeriod">
                {GRACE_PERIODS.map((option) => (
                  <option key={option.value} value={option.value}>{option.label}</option>
                ))}
              </select>
            </label>
            <div className="row" style={{ marginTop: '1rem' }}>
              <button type="button" className="primary" onClick={onConfirm}>Roll key</button>
              <button type="button" onClick={closeDialog}>Cancel</button>
            </div>
          </>
        )}
      </dialog>
    </section>
  );
}
