// Connecting an account's store accounts (issue 67), against the stores' stand-ins: checked with the store before
// anything is kept, sealed at rest, the owned apps marked, replaced and removed, each step in the security log; a
// credential the store refuses stores nothing and keeps the one before.
import PgBoss from 'pg-boss';
import { describe, expect, it, vi } from 'vitest';
import { resetConfig } from '@/server/core/config';
import { useStoreStandIns } from '../../../../test/stores/store-stand-ins';
import { databaseAsText } from '../../../../test/database-text';
import { isSealed } from '@/server/core/data-encryption';
import { db } from '@/server/db';
import { AppError } from '@/server/errors/app-error';
import { makeAccount } from '../../../../test/factories';
import { startAppStoreConnectStandIn } from '../../../../test/stores/app-store-connect-stand-in';
import { connectStoreAccount, listStoreAccounts, removeStoreAccount, storeAccountCredential } from './store-accounts';
import { collectOwnedReviews } from './owned-reviews';
import { OWNED_REVIEWS_CRON, OWNED_REVIEWS_QUEUE, scheduleOwnedReviews, startReviewReads } from './reviews-schedule';

const standIns = useStoreStandIns();

/** An account tracking the stand-ins' apps (and one of each store they do not own). */
async function accountWithApps() {
  const owner = await makeAccount('pro');
  const app = (store: 'app_store' | 'google_play', storeId: string, name: string) =>
    db.trackedApp.create({
      data: {
        accountId: owner.accountId,
        store,
        storeId,
        bundleId: store === 'app_store' ? `com.example.${storeId}` : storeId,
        name,
        developer: 'Calm Labs Inc.',
        category: 'Health & Fitness',
        primaryCountry: 'US',
      },
    });
  return {
    owner,
    ownedIos: await app('app_store', '1459969523', 'Breathe'),
    otherIos: await app('app_store', '999', 'Someone else’s'),
    ownedAndroid: await app('google_play', 'com.calmlabs.breathe', 'Breathe for Android'),
    otherAndroid: await app('google_play', 'com.other.app', 'Another app'),
  };
}

describe('store accounts', () => {
  it('connects both stores’ accounts, marks the apps each owns, and keeps the credentials sealed', async () => {
    const { owner, ownedIos, ownedAndroid } = await accountWithApps();
    const now = new Date();
    const ios = await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, now);
    expect(ios).toMatchObject({
      store: 'app_store',
      label: `Key ${standIns.apple.key.keyId} of issuer ${standIns.apple.key.issuerId}`,
      ownedApps: [{ id: ownedIos.id, name: 'Breathe' }],
    });
    const android = await connectStoreAccount(
      owner,
      { store: 'google_play', serviceAccountKey: standIns.google.keyJson },
      now,
    );
    expect(android).toMatchObject({
      store: 'google_play',
      label: 'aso-replies@calm-labs.iam.gserviceaccount.com',
      ownedApps: [{ id: ownedAndroid.id, name: 'Breathe for Android' }],
    });
    // Sealed at rest: no part of either secret in the table; opened only for a call to the store.
    const stored = await db.storeAccount.findMany({ where: { accountId: owner.accountId } });
    const raw = JSON.stringify(stored);
    expect(raw).not.toContain('PRIVATE KEY');
    expect(raw).not.toContain(standIns.apple.key.privateKey.split('\n')[1]!);
    expect(stored.every((row) => isSealed(row.credential))).toBe(true);
    expect(await storeAccountCredential(owner.accountId, 'app_store')).toMatchObject({
      keyId: standIns.apple.key.keyId,
    });
    const log = await db.securityEvent.findMany({
      where: { accountId: owner.accountId },
      orderBy: { occurredAt: 'asc' },
    });
    expect(log.map((entry) => entry.kind)).toEqual(['store_account.connected', 'store_account.connected']);
    expect(JSON.stringify(log, (_key, value) => (typeof value === 'bigint' ? String(value) : value))).not.toContain(
      'PRIVATE KEY',
    );
    // No table of the database holds either secret readable (the governance scan, as secrets.integration.test.ts's).
    const dump = await databaseAsText();
    expect(dump).not.toContain(standIns.apple.key.privateKey.split('\n')[1]!);
    const googleKey = JSON.parse(standIns.google.keyJson) as { private_key: string };
    expect(dump).not.toContain(googleKey.private_key.split('\n')[1]!);
  });

  it('refuses a key the store refuses, storing nothing and keeping the one before', async () => {
    const { owner } = await accountWithApps();
    await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, new Date());
    const before = await db.storeAccount.findMany({ where: { accountId: owner.accountId } });
    const badP8 = await connectStoreAccount(
      owner,
      { store: 'app_store', ...standIns.apple.key, privateKey: 'oops' },
      new Date(),
    ).catch((error: unknown) => error);
    expect(badP8).toBeInstanceOf(AppError);
    expect(badP8).toMatchObject({ appCode: 'VALIDATION_ERROR', message: expect.stringContaining('.p8') });
    const notJson = await connectStoreAccount(
      owner,
      { store: 'google_play', serviceAccountKey: '{' },
      new Date(),
    ).catch((error: unknown) => error);
    expect(notJson).toMatchObject({ appCode: 'VALIDATION_ERROR', message: expect.stringContaining('JSON') });
    expect(await db.storeAccount.findMany({ where: { accountId: owner.accountId } })).toEqual(before);
  });

  it('replaces and removes an account, in the security log, and its apps are no longer owned', async () => {
    const { owner, ownedIos } = await accountWithApps();
    await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, new Date());
    await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, new Date());
    expect(await listStoreAccounts(owner.accountId)).toHaveLength(1);
    await removeStoreAccount(owner, 'app_store');
    expect(await listStoreAccounts(owner.accountId)).toEqual([]);
    expect((await db.trackedApp.findUniqueOrThrow({ where: { id: ownedIos.id } })).ownedByStoreAccountId).toBeNull();
    const kinds = (
      await db.securityEvent.findMany({ where: { accountId: owner.accountId }, orderBy: { occurredAt: 'asc' } })
    ).map((entry) => entry.kind);
    expect(kinds).toEqual(['store_account.connected', 'store_account.replaced', 'store_account.removed']);
    await expect(removeStoreAccount(owner, 'app_store')).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
  });
});

describe('owned reviews', () => {
  it('keeps every review of the owned apps with its answer, the week’s Google ones too once gone from the store', async () => {
    const { owner, ownedIos, ownedAndroid, otherAndroid } = await accountWithApps();
    await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, new Date());
    await connectStoreAccount(owner, { store: 'google_play', serviceAccountKey: standIns.google.keyJson }, new Date());
    const first = await collectOwnedReviews(owner.accountId, new Date());
    expect(first).toMatchObject({ read: 8, added: 8, refused: [] });
    const ios = await db.storeAccountReview.findMany({
      where: { trackedAppId: ownedIos.id },
      orderBy: { writtenAt: 'desc' },
    });
    expect(ios).toHaveLength(5);
    expect(ios.find((review) => review.responseBody)).toMatchObject({ responseState: 'PUBLISHED' });
    const android = await db.storeAccountReview.findMany({ where: { trackedAppId: ownedAndroid.id } });
    expect(android).toHaveLength(3);
    expect(await db.storeAccountReview.count({ where: { trackedAppId: otherAndroid.id } })).toBe(0);
    // Google gives a week's reviews: one that leaves its window is kept.
    const reviews = standIns.google.packages.get('com.calmlabs.breathe')!;
    const gone = reviews.pop()!;
    const again = await collectOwnedReviews(owner.accountId, new Date());
    expect(again).toMatchObject({ added: 0 });
    expect(await db.storeAccountReview.count({ where: { trackedAppId: ownedAndroid.id } })).toBe(3);
    reviews.push(gone);
  });

  it('marks a store account the store refuses, and keeps what it read before', async () => {
    const local = await startAppStoreConnectStandIn();
    process.env.APP_STORE_CONNECT_ORIGIN = local.origin;
    resetConfig();
    try {
      const { owner, ownedIos } = await accountWithApps();
      await connectStoreAccount(owner, { store: 'app_store', ...local.key }, new Date());
      await collectOwnedReviews(owner.accountId, new Date());
      local.revoke();
      const refused = await collectOwnedReviews(owner.accountId, new Date());
      expect(refused.refused).toEqual([{ store: 'app_store', reason: expect.stringContaining('revoked') }]);
      expect((await listStoreAccounts(owner.accountId))[0]!.lastError).toMatch(/revoked/);
      expect(await db.storeAccountReview.count({ where: { trackedAppId: ownedIos.id } })).toBe(5);
    } finally {
      process.env.APP_STORE_CONNECT_ORIGIN = standIns.apple.origin;
      resetConfig();
      await local.close();
    }
  });

  it('are read on a daily schedule of the job queue', async () => {
    const boss = new PgBoss({ connectionString: process.env.DATABASE_URL!, schema: 'pgboss', max: 2 });
    await boss.start();
    try {
      await scheduleOwnedReviews(boss, () => {});
      expect(await boss.getSchedules()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: OWNED_REVIEWS_QUEUE, cron: OWNED_REVIEWS_CRON, timezone: 'UTC' }),
        ]),
      );
    } finally {
      await boss.unschedule(OWNED_REVIEWS_QUEUE);
      await boss.stop({ graceful: true, timeout: 5_000 });
    }
  });

  it('are read as soon as a store account is connected, by the background work', async () => {
    const { owner, ownedIos } = await accountWithApps();
    await connectStoreAccount(owner, { store: 'app_store', ...standIns.apple.key }, new Date());
    expect(await db.storeAccountReview.count({ where: { trackedAppId: ownedIos.id } })).toBe(0);
    const stop = startReviewReads({ intervalMs: 20, accountId: owner.accountId });
    try {
      await vi.waitUntil(
        async () => (await db.storeAccountReview.count({ where: { trackedAppId: ownedIos.id } })) === 5,
        {
          timeout: 10_000,
          interval: 50,
        },
      );
    } finally {
      await stop();
    }
    expect(
      (await db.storeAccount.findFirstOrThrow({ where: { accountId: owner.accountId } })).reviewsRequestedAt,
    ).toBeNull();
  });
});
