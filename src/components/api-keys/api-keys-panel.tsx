'use client';
// Settings → API access: the keys table (searchable, active keys first), create (secret shown once, focused, with
// optional restrictions), revoke (confirmed, announced), roll (confirmed, with a grace period) and restrict (its apps,
// client addresses and monthly budget).
import Link from 'next/link';
import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog, focusable } from '@/components/common/confirm-dialog';
import { CopyButton } from '@/components/common/copy-button';
import { DialogActions, FormDialog } from '@/components/common/form-dialog';
import { RowMenu } from '@/components/common/row-menu';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';
import type { ApiKeyOutput } from '@/server/api/routers/api-keys/api-keys.schema';
import {
  describeRestrictions,
  draftOf,
  NO_RESTRICTIONS,
  RestrictionFields,
  restrictionsOf,
  type AppChoice,
  type RestrictionDraft,
} from './restriction-fields';
import {
  GraceSelect,
  type GracePeriod,
  NewKeySecret,
  RevokeDescription,
  RollDescription,
  revokeKey,
  rollKey,
} from './key-lifecycle';

/** The last day the picker offers: its end (23:59:59.999 UTC) is within a year of now. */
function latestExpiryDay(): string {
  return new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);
}

/** The expiry the form suggests: 90 days from today. */
function suggestedExpiryDay(): string {
  return new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
}

interface Props {
  initialKeys: ApiKeyOutput[];
  apiAccess: boolean;
  planLabel: string;
  /** This deployment's public API base URL, for the ready-to-run first call. */
  baseUrl: string;
  /** The account's apps, for a key's app restriction. */
  apps: AppChoice[];
  /** The owner's setting: every new key must have an expiry. */
  requireKeyExpiry: boolean;
}

type StatusFilter = 'active' | 'ended' | 'all';

function matchesStatus(key: ApiKeyOutput, filter: StatusFilter): boolean {
  if (filter === 'all') return true;
  return filter === 'active' ? key.status === 'active' : key.status !== 'active';
}

function matchesSearch(key: ApiKeyOutput, search: string): boolean {
  const needle = search.trim().toLowerCase();
  if (!needle) return true;
  return (
    key.name.toLowerCase().includes(needle) ||
    `${key.displayPrefix}…${key.lastFour}`.toLowerCase().includes(needle) ||
    key.lastFour.toLowerCase() === needle
  );
}

/** A first call with the new key: the account's apps. */
function firstCall(baseUrl: string, secret: string): string {
  return `curl -H "Authorization: Bearer ${secret}" ${baseUrl}/apps`;
}

export function ApiKeysPanel({ initialKeys, apiAccess, planLabel, baseUrl, apps, requireKeyExpiry }: Props) {
  const { run, pending, error, router } = useAction();
  const [revealed, setRevealed] = useState<{ secret: string; name: string; note?: string } | null>(null);
  const [confirming, setConfirming] = useState<{ kind: 'revoke' | 'roll' | 'restrict'; key: ApiKeyOutput } | null>(
    null,
  );
  const [creating, setCreating] = useState(false);
  const [newRestrictions, setNewRestrictions] = useState<RestrictionDraft>(NO_RESTRICTIONS);
  // Shown at once; set back if the change fails.
  const [expiryRequired, setExpiryRequired] = useState(requireKeyExpiry);
  const [editedRestrictions, setEditedRestrictions] = useState<RestrictionDraft>(NO_RESTRICTIONS);
  const [grace, setGrace] = useState<GracePeriod>('24h');
  const [status, setStatus] = useState<StatusFilter>('active');
  const [search, setSearch] = useState('');
  const secretBox = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // The dialog's state is cleared as it closes; where focus goes next depends on what it did.
  const confirmed = useRef<'revoke' | 'roll' | 'restrict' | null>(null);

  const visible = initialKeys.filter((key) => matchesStatus(key, status) && matchesSearch(key, search));
  const hidden = initialKeys.filter((key) => !matchesStatus(key, status)).length;

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
        restrictions: restrictionsOf(newRestrictions),
      });
      setCreating(false);
      setRevealed({ secret, name: key.name });
      toast.success(`Key “${key.name}” created`);
      formElement.reset();
      setNewRestrictions(NO_RESTRICTIONS);
    });
  }

  function ask(kind: 'revoke' | 'roll' | 'restrict', key: ApiKeyOutput) {
    setGrace('24h');
    setEditedRestrictions(draftOf(key.restrictions));
    setConfirming({ kind, key });
  }

  async function onConfirm() {
    if (!confirming) return;
    const { kind, key } = confirming;
    confirmed.current = kind;
    if (kind === 'restrict') {
      await trpc.apiKeys.restrict.mutate({ keyId: key.id, restrictions: restrictionsOf(editedRestrictions) });
      toast.success(`Restrictions of “${key.name}” saved: they apply from its next call`);
    } else if (kind === 'revoke') {
      await revokeKey(key);
    } else {
      setRevealed(await rollKey(key, grace));
    }
    router.refresh();
  }

  return (
    <section className="panel" aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading" ref={heading} tabIndex={-1}>
        API keys
      </h2>
      {!apiAccess && (
        <p className="notice" data-testid="plan-required">
          Your account is on the {planLabel} plan, which has no API access. API keys come with the paid plans (Solo,
          Pro, Business, Agency and Enterprise): <a href="/settings/billing">choose a plan</a> to create keys.
        </p>
      )}

      {revealed && (
        <NewKeySecret
          title={<>Your new key “{revealed.name}”</>}
          secret={revealed.secret}
          note={revealed.note}
          onSaved={() => {
            setRevealed(null);
            heading.current?.focus();
          }}
          boxRef={secretBox}
        >
          <p>Try it: this lists your apps.</p>
          <pre className="code-block" data-testid="first-call">
            <code>{firstCall(baseUrl, revealed.secret)}</code>
          </pre>
          <div className="row">
            <CopyButton
              text={firstCall(baseUrl, revealed.secret)}
              label="Copy curl"
              what="The curl command"
              testId="copy-first-call"
            />
          </div>
        </NewKeySecret>
      )}

      <div className="row" style={{ margin: '1rem 0' }}>
        <FormDialog
          open={creating}
          onOpenChange={setCreating}
          openLabel="New key"
          title="Create an API key"
          description={
            <p className="muted">
              Name it after where it will live (a warehouse job, a CI pipeline). Its secret is shown once, after you
              create it.
            </p>
          }
          disabled={!apiAccess}
          focusAfter={() => secretBox.current}
          testId="create-key-dialog"
        >
          <form className="row" onSubmit={onCreate} aria-label="Create key">
            <label>
              Name
              <input
                name="name"
                required
                maxLength={100}
                placeholder="e.g. Reporting warehouse"
                disabled={!apiAccess}
              />
            </label>
            <label>
              Scope
              <select name="scope" defaultValue="read-only" disabled={!apiAccess}>
                <option value="read-only">Read-only</option>
                <option value="read-write">Read-write</option>
              </select>
            </label>
            <label>
              {expiryRequired
                ? 'Expires (required by this account, end of day UTC, within a year)'
                : 'Expires (90 days suggested; empty: until revoked)'}
              {/* The server holds the bound (MAX_KEY_LIFETIME_DAYS); the picker only offers the days within it. */}
              <input
                name="expiresAt"
                type="date"
                max={latestExpiryDay()}
                defaultValue={suggestedExpiryDay()}
                required={expiryRequired}
                disabled={!apiAccess}
                suppressHydrationWarning
              />
            </label>
            <details style={{ flexBasis: '100%' }} data-testid="create-restrictions">
              <summary>Restrictions (optional): apps, client addresses, monthly budget</summary>
              <RestrictionFields
                draft={newRestrictions}
                onChange={setNewRestrictions}
                apps={apps}
                idPrefix="new-key"
                disabled={!apiAccess}
              />
            </details>
            <DialogActions error={error} pending={!apiAccess || pending} submit="Create key" />
          </form>
        </FormDialog>
      </div>
      {initialKeys.length === 0 ? (
        <div className="empty" data-testid="keys-empty">
          <p>
            <strong>No keys yet.</strong>
          </p>
          <p className="muted">
            {apiAccess
              ? 'Create one with New key: name it after where it will live (a warehouse job, a CI pipeline), and choose read-only unless it adds keywords or competitors.'
              : 'Choose a paid plan to create your first key.'}
          </p>
        </div>
      ) : (
        <>
          <div className="row" role="search" aria-label="Filter keys">
            <label>
              Search
              <input
                type="search"
                value={search}
                onChange={(event) => setSearch(event.target.value)}
                placeholder="Name or svc_live_…"
              />
            </label>
            <label>
              Status
              <select
                value={status}
                onChange={(event) => setStatus(event.target.value as StatusFilter)}
                data-testid="key-status-filter"
              >
                <option value="active">Active</option>
                <option value="ended">Revoked and expired</option>
                <option value="all">All</option>
              </select>
            </label>
            <p className="muted" aria-live="polite" style={{ margin: 0 }}>
              {visible.length} of {initialKeys.length} keys shown
              {hidden > 0 && status === 'active' ? ` (${hidden} revoked or expired)` : ''}.
            </p>
          </div>
          <TableScroll label="API keys">
            <table data-testid="keys-table">
              <thead>
                <tr>
                  <th>Name</th>
                  <th>Key</th>
                  <th>Scope</th>
                  <th>Restrictions</th>
                  <th>Created</th>
                  <th>Last used</th>
                  <th>Expires</th>
                  <th>Status</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {visible.map((key) => (
                  <tr key={key.id} data-key-prefix={key.displayPrefix}>
                    <td>
                      <Link href={`/settings/api/keys/${key.id}`} title="Calls, credits and request log of this key">
                        {key.name}
                      </Link>
                    </td>
                    <td className="mono">
                      {key.displayPrefix}…{key.lastFour}
                    </td>
                    <td>{key.scope}</td>
                    <td data-testid="key-restrictions">
                      {describeRestrictions(key, apps).map((line) => (
                        <div key={line}>{line}</div>
                      ))}
                    </td>
                    <td>{formatInstant(key.createdAt)}</td>
                    <td>
                      {key.lastUsedAt ? formatInstant(key.lastUsedAt) : 'Never'}
                      {key.lastUsedIp && <div className="muted mono">{key.lastUsedIp}</div>}
                    </td>
                    <td>{key.expiresAt ? formatInstant(key.expiresAt) : 'Never'}</td>
                    <td>
                      <span
                        className={`badge ${key.status === 'active' && key.rolledAt ? 'rolled' : key.status}`}
                        data-testid="key-status"
                      >
                        {key.status === 'active' && key.rolledAt ? 'rolled' : key.status}
                      </span>
                    </td>
                    <td>
                      {key.status === 'active' && (
                        <RowMenu
                          label={key.name}
                          disabled={pending}
                          actions={[
                            ...(key.rolledAt
                              ? []
                              : [{ label: 'Roll', onSelect: () => ask('roll', key), disabled: !apiAccess }]),
                            { label: 'Restrict', onSelect: () => ask('restrict', key), disabled: !apiAccess },
                            { label: 'Revoke', onSelect: () => ask('revoke', key), danger: true },
                          ]}
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          {visible.length === 0 && <p className="muted">No key matches: change the search or the status filter.</p>}
        </>
      )}

      <h3 id="key-policy-heading">Key policy</h3>
      <label className="inline">
        <input
          type="checkbox"
          checked={expiryRequired}
          disabled={!apiAccess || pending}
          data-testid="require-key-expiry"
          onChange={(event) => {
            const required = event.target.checked;
            setExpiryRequired(required);
            void run(async () => {
              try {
                await trpc.apiKeys.setExpiryPolicy.mutate({ requireKeyExpiry: required });
              } catch (error) {
                setExpiryRequired(!required);
                throw error;
              }
              toast.success(required ? 'New keys must now have an expiry' : 'New keys may now live until revoked');
            });
          }}
        />
        Require an expiry on every new key of this account
      </label>
      {!creating && error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => {
          if (!open) setConfirming(null);
        }}
        testId="key-dialog"
        title={
          confirming?.kind === 'restrict'
            ? `Restrict key “${confirming.key.name}”`
            : confirming?.kind === 'roll'
              ? `Roll key “${confirming.key.name}”?`
              : `Revoke key “${confirming?.key.name ?? ''}”?`
        }
        tone={confirming?.kind === 'revoke' ? 'danger' : 'primary'}
        confirmLabel={
          confirming?.kind === 'restrict'
            ? 'Save restrictions'
            : confirming?.kind === 'roll'
              ? 'Roll key'
              : 'Revoke key'
        }
        // After a roll the new secret takes focus; after a revocation the row's buttons are gone: the table's heading.
        // After a restriction the row stays: focus returns to its button.
        focusAfter={() =>
          confirmed.current === 'roll'
            ? secretBox.current
            : confirmed.current === 'restrict'
              ? null
              : focusable(heading.current)
        }
        description={
          confirming?.kind === 'restrict' ? (
            <p>
              What the key may reach, where it may call from, and what it may spend a month. Calls outside them are
              refused (404, 403 or 402) and cost nothing.
            </p>
          ) : confirming?.kind === 'roll' ? (
            <RollDescription />
          ) : (
            confirming && <RevokeDescription apiKey={confirming.key} />
          )
        }
        onConfirm={onConfirm}
      >
        {confirming?.kind === 'restrict' && (
          <RestrictionFields
            draft={editedRestrictions}
            onChange={setEditedRestrictions}
            apps={apps}
            idPrefix="edit-key"
          />
        )}
        {confirming?.kind === 'roll' && <GraceSelect value={grace} onChange={setGrace} />}
      </ConfirmDialog>
    </section>
  );
}
