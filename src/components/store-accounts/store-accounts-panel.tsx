'use client';
// Settings → Store accounts (issue 67): the account's App Store Connect and Google Play Console accounts, connected
// with a credential pasted or chosen as a file, checked with the store before it is kept, never shown again. Each says
// which tracked apps it owns, when the store last accepted it and what it said if it did not; a key is replaced by
// connecting again, and removed after a confirmation.
import { useRef, useState, type ChangeEvent, type FormEvent, type RefObject } from 'react';
import { toast } from 'sonner';
import { ConfirmDialog, focusable } from '@/components/common/confirm-dialog';
import { DialogActions, FormDialog } from '@/components/common/form-dialog';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';

type StoreAccount = Awaited<ReturnType<typeof trpc.storeAccounts.list.query>>[number];
type Store = StoreAccount['store'];

const CONSOLES: Record<Store, { name: string; credential: string; help: string }> = {
  app_store: {
    name: 'App Store Connect',
    credential: 'API key',
    help: 'In App Store Connect, Users and Access → Integrations → App Store Connect API: a key with the Customer Support role (or Admin). Its .p8 file downloads once.',
  },
  google_play: {
    name: 'Google Play Console',
    credential: 'service account key',
    help: 'A Google Cloud service account with the Google Play Android Developer API, invited in Play Console (Users and permissions) with “Reply to reviews”; its JSON key.',
  },
};

/** A file chosen for a text field: its text goes in the field, to be seen before it is sent. */
function readInto(field: RefObject<HTMLTextAreaElement | null>) {
  return async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    if (file && field.current) field.current.value = await file.text();
  };
}

function ConnectForm({ store, onDone }: { store: Store; onDone: () => void }) {
  const { run, pending, error } = useAction();
  const secretField = useRef<HTMLTextAreaElement>(null);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    await run(async () => {
      const connected = await trpc.storeAccounts.connect.mutate(
        store === 'app_store'
          ? {
              store,
              issuerId: String(data.get('issuerId') ?? ''),
              keyId: String(data.get('keyId') ?? ''),
              privateKey: String(data.get('secret') ?? ''),
            }
          : { store, serviceAccountKey: String(data.get('secret') ?? '') },
      );
      onDone();
      toast.success(
        `${CONSOLES[store].name} connected: ${connected.ownedApps.length} tracked app${connected.ownedApps.length === 1 ? '' : 's'} owned`,
      );
    });
  }

  return (
    <form className="stack" onSubmit={onSubmit} aria-label={`Connect ${CONSOLES[store].name}`}>
      <p className="muted">{CONSOLES[store].help}</p>
      {store === 'app_store' && (
        <div className="row">
          <label style={{ flex: '2 1 280px' }}>
            Issuer ID
            <input name="issuerId" required autoComplete="off" placeholder="57246542-96fe-1a63-e053-0824d011072a" />
          </label>
          <label style={{ flex: '1 1 140px' }}>
            Key ID
            <input name="keyId" required autoComplete="off" placeholder="2X9R4HXF34" />
          </label>
        </div>
      )}
      <label>
        {store === 'app_store' ? 'Private key (.p8)' : 'Service account key (JSON)'}
        <textarea
          ref={secretField}
          name="secret"
          required
          rows={6}
          spellCheck={false}
          autoComplete="off"
          placeholder={store === 'app_store' ? '-----BEGIN PRIVATE KEY-----' : '{ "type": "service_account", … }'}
        />
      </label>
      <label>
        Or choose the file
        <input
          type="file"
          accept={store === 'app_store' ? '.p8' : '.json,application/json'}
          onChange={readInto(secretField)}
        />
      </label>
      <p className="muted">
        It is checked with {CONSOLES[store].name} before it is kept, stored encrypted, and never shown again.
      </p>
      <DialogActions error={error} pending={pending} submit="Check and connect" />
    </form>
  );
}

export function StoreAccountsPanel({ accounts }: { accounts: StoreAccount[] }) {
  const [connecting, setConnecting] = useState<Store | null>(null);
  const [removing, setRemoving] = useState<StoreAccount | null>(null);
  const { router } = useAction();
  const heading = useRef<HTMLHeadingElement>(null);

  return (
    <section className="panel" aria-labelledby="store-accounts-heading">
      <h1 id="store-accounts-heading" ref={heading} tabIndex={-1}>
        Store accounts
      </h1>
      <p className="muted">
        Connect the App Store Connect and Google Play Console accounts that publish your apps: every review of the apps
        they own is then read each day and kept, with your answers.
      </p>
      {(Object.keys(CONSOLES) as Store[]).map((store) => {
        const account = accounts.find((each) => each.store === store);
        return (
          <section
            key={store}
            className="panel"
            aria-labelledby={`store-${store}`}
            data-testid={`store-account-${store}`}
          >
            <h2 id={`store-${store}`}>{CONSOLES[store].name}</h2>
            {account ? (
              <>
                <p>
                  <strong>{account.label}</strong>
                  <span className="muted"> · accepted by the store {formatInstant(account.lastCheckedAt)}</span>
                </p>
                {account.lastError && (
                  <p className="error" role="alert">
                    The store refused it at the last reading: {account.lastError}
                  </p>
                )}
                <p>
                  {account.ownedApps.length
                    ? `Owns ${account.ownedApps.map((app) => app.name).join(', ')}.`
                    : 'Owns none of your tracked apps: track the apps it publishes, then connect it again.'}
                </p>
              </>
            ) : (
              <p className="muted">Not connected.</p>
            )}
            <div className="row">
              <FormDialog
                open={connecting === store}
                onOpenChange={(open) => setConnecting(open ? store : null)}
                openLabel={account ? `Replace the ${CONSOLES[store].credential}` : `Connect ${CONSOLES[store].name}`}
                title={`Connect ${CONSOLES[store].name}`}
                testId={`connect-${store}`}
              >
                <ConnectForm store={store} onDone={() => setConnecting(null)} />
              </FormDialog>
              {account && (
                <button type="button" onClick={() => setRemoving(account)}>
                  Remove
                </button>
              )}
            </div>
          </section>
        );
      })}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => {
          if (!open) setRemoving(null);
        }}
        testId="remove-store-account"
        title={`Remove ${removing ? CONSOLES[removing.store].name : ''}?`}
        tone="danger"
        confirmLabel="Remove"
        focusAfter={() => focusable(heading.current)}
        description="Its key is deleted here (it stays valid at the store: revoke it there too if you will not use it again). The reviews read so far stay; no new ones are read."
        onConfirm={async () => {
          if (!removing) return;
          await trpc.storeAccounts.remove.mutate({ store: removing.store });
          toast.success(`${CONSOLES[removing.store].name} removed`);
          router.refresh();
        }}
      />
    </section>
  );
}
