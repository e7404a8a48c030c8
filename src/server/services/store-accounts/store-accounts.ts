// An account's own store accounts (issue 67): connected with a credential its owner pastes (an App Store Connect API
// key, a Google Play service account's JSON key), checked against the store before anything is kept, sealed at rest
// and never shown again. Connecting marks the tracked apps the store account owns: those it sees in its console
// (App Store Connect lists them; Google Play has no list, so each tracked Play app is asked for its reviews), and asks
// the background work to read their reviews at once (./reviews-schedule.ts). Each step is in the security log.
import { db } from '@/server/db';
import { currentDataKeyId, open, seal, sealedWith } from '@/server/core/data-encryption';
import { AppError } from '@/server/errors/app-error';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { type AppStoreConnectKey, listConnectApps } from './app-store-connect';
import {
  listPlayReviews,
  parseServiceAccountKey,
  playAccessToken,
  type ServiceAccountKey,
} from './google-play-console';
import { StoreAccountError } from './store-account-errors';

export type StoreAccountCredential =
  | ({ store: 'app_store' } & AppStoreConnectKey)
  | { store: 'google_play'; serviceAccountKey: string };

export interface StoreAccountView {
  id: string;
  store: 'app_store' | 'google_play';
  label: string;
  lastCheckedAt: Date;
  lastError: string | null;
  ownedApps: { id: string; name: string }[];
  createdAt: Date;
}

/** Whose store accounts: the account (the security log names the member from the request). */
interface StoreAccountActor {
  accountId: string;
}

/** A store's refusal as the API answers it: the credential's fault is the request's (400), the store's is 503. */
function storeAccountProblem(error: StoreAccountError, pointer: string): AppError {
  if (error.kind === 'invalid-credential' || error.kind === 'credential-refused')
    return new AppError('VALIDATION_ERROR', error.message, {
      errors: [{ in: 'body', pointer, detail: error.message }],
    });
  if (error.kind === 'not-found') return new AppError('NOT_FOUND', error.message);
  return new AppError('STORE_UNAVAILABLE', error.message);
}

/** What the credential is, checked with its store: its label, the JSON kept (sealed), the tracked apps it owns. */
async function checkWithStore(
  accountId: string,
  input: StoreAccountCredential,
): Promise<{ label: string; credential: string; owned: string[] }> {
  const tracked = await db.trackedApp.findMany({
    where: { accountId, store: input.store },
    select: { id: true, storeId: true },
  });
  if (input.store === 'app_store') {
    const key: AppStoreConnectKey = {
      issuerId: input.issuerId.trim(),
      keyId: input.keyId.trim(),
      privateKey: input.privateKey,
    };
    const apps = new Set((await listConnectApps(key)).map((app) => app.id));
    return {
      label: `Key ${key.keyId} of issuer ${key.issuerId}`,
      credential: JSON.stringify(key),
      owned: tracked.filter((app) => apps.has(app.storeId)).map((app) => app.id),
    };
  }
  const key = parseServiceAccountKey(input.serviceAccountKey);
  await playAccessToken(key);
  const owned: string[] = [];
  for (const app of tracked) {
    try {
      await listPlayReviews(key, app.storeId);
      owned.push(app.id);
    } catch (error) {
      // An app the service account was not given in Play Console is not its; anything else is the store's answer.
      if (!(error instanceof StoreAccountError && error.kind === 'credential-refused')) throw error;
    }
  }
  return { label: key.client_email, credential: JSON.stringify(key satisfies ServiceAccountKey), owned };
}

/**
 * Connects (or replaces) the account's store account of `input.store`: checked with the store first, so a credential
 * the store refuses stores nothing and keeps the one connected before.
 */
export async function connectStoreAccount(
  actor: StoreAccountActor,
  input: StoreAccountCredential,
  now: Date,
): Promise<StoreAccountView> {
  let checked: Awaited<ReturnType<typeof checkWithStore>>;
  try {
    checked = await checkWithStore(actor.accountId, input);
  } catch (error) {
    if (error instanceof StoreAccountError)
      throw storeAccountProblem(error, input.store === 'app_store' ? '#/privateKey' : '#/serviceAccountKey');
    throw error;
  }
  const id = await db.$transaction(async (tx) => {
    const before = await tx.storeAccount.findUnique({
      where: { accountId_store: { accountId: actor.accountId, store: input.store } },
      select: { id: true, label: true },
    });
    const row = await tx.storeAccount.upsert({
      where: { accountId_store: { accountId: actor.accountId, store: input.store } },
      create: {
        accountId: actor.accountId,
        store: input.store,
        label: checked.label,
        credential: seal(checked.credential),
        lastCheckedAt: now,
        reviewsRequestedAt: now,
      },
      update: {
        reviewsRequestedAt: now,
        label: checked.label,
        credential: seal(checked.credential),
        lastCheckedAt: now,
        lastError: null,
        updatedAt: now,
      },
      select: { id: true },
    });
    await tx.trackedApp.updateMany({ where: { ownedByStoreAccountId: row.id }, data: { ownedByStoreAccountId: null } });
    await tx.trackedApp.updateMany({
      where: { id: { in: checked.owned }, accountId: actor.accountId },
      data: { ownedByStoreAccountId: row.id },
    });
    await recordSecurityEvent(
      {
        accountId: actor.accountId,
        kind: before ? 'store_account.replaced' : 'store_account.connected',
        target: { type: 'store_account', id: row.id, label: checked.label },
        ...(before && { before: { store: input.store, label: before.label } }),
        after: { store: input.store, label: checked.label, ownedApps: checked.owned.length },
      },
      tx,
    );
    return row.id;
  });
  return (await listStoreAccounts(actor.accountId)).find((account) => account.id === id)!;
}

/** The account's store accounts, with the tracked apps each owns; never their credentials. */
export async function listStoreAccounts(accountId: string): Promise<StoreAccountView[]> {
  const rows = await db.storeAccount.findMany({
    where: { accountId },
    orderBy: { store: 'asc' },
    select: {
      id: true,
      store: true,
      label: true,
      lastCheckedAt: true,
      lastError: true,
      createdAt: true,
      ownedApps: { select: { id: true, name: true }, orderBy: { name: 'asc' } },
    },
  });
  return rows.map((row) => ({ ...row, store: row.store as StoreAccountView['store'] }));
}

/** Removes the account's store account of `store`: its credential is deleted, its apps are no longer owned. */
export async function removeStoreAccount(actor: StoreAccountActor, store: 'app_store' | 'google_play'): Promise<void> {
  await db.$transaction(async (tx) => {
    const row = await tx.storeAccount.findUnique({
      where: { accountId_store: { accountId: actor.accountId, store } },
      select: { id: true, label: true },
    });
    if (!row) throw new AppError('NOT_FOUND', 'No store account of this store is connected.');
    await tx.storeAccount.delete({ where: { id: row.id } });
    await recordSecurityEvent(
      {
        accountId: actor.accountId,
        kind: 'store_account.removed',
        target: { type: 'store_account', id: row.id, label: row.label },
        before: { store, label: row.label },
      },
      tx,
    );
  });
}

/** The credential of the account's store account of `store`, opened for a call to the store; null when none. */
export async function storeAccountCredential(
  accountId: string,
  store: 'app_store' | 'google_play',
): Promise<AppStoreConnectKey | ServiceAccountKey | null> {
  const row = await db.storeAccount.findUnique({
    where: { accountId_store: { accountId, store } },
    select: { credential: true },
  });
  return row ? (JSON.parse(open(row.credential)) as AppStoreConnectKey | ServiceAccountKey) : null;
}

/**
 * Seals every store account's credential not under the current data key (`npm run admin -- secrets reseal`, after a
 * rotation of DATA_ENCRYPTION_KEY). A row is rewritten only if it is still the one read. Returns how many were.
 */
export async function resealStoreAccounts(): Promise<number> {
  const current = currentDataKeyId();
  let resealed = 0;
  for (const row of await db.storeAccount.findMany({ select: { id: true, credential: true } })) {
    if (sealedWith(row.credential) === current) continue;
    const { count } = await db.storeAccount.updateMany({
      where: { id: row.id, credential: row.credential },
      data: { credential: seal(open(row.credential)) },
    });
    resealed += count;
  }
  return resealed;
}

/** Whether one of the account's store accounts owns the tracked app. */
export async function appIsOwned(trackedAppId: string): Promise<boolean> {
  const app = await db.trackedApp.findUnique({ where: { id: trackedAppId }, select: { ownedByStoreAccountId: true } });
  return Boolean(app?.ownedByStoreAccountId);
}
