import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { makeAccount } from '../../../test/factories';

const storeIdOf = () => String(1_000_000_000 + Math.floor(Math.random() * 8_000_000_000));
const appData = (accountId: string, storeId: string, store: 'app_store' | 'google_play' = 'app_store') => ({
  accountId,
  store,
  storeId,
  bundleId: 'com.example.shared',
  name: 'Shared',
  developer: 'Shared Developer',
  category: 'Utilities',
  primaryCountry: 'US',
});

describe('store apps', () => {
  it('one per store app and mode, whoever tracks or follows it, named by the database on insert', async () => {
    const [first, second] = await Promise.all([makeAccount('pro'), makeAccount('solo')]);
    const storeId = storeIdOf();
    const a = await db.trackedApp.create({ data: appData(first.accountId, storeId) });
    const b = await db.trackedApp.create({ data: appData(second.accountId, storeId) });
    expect(a.storeAppId).toBeGreaterThan(0);
    expect(b.storeAppId).toBe(a.storeAppId);

    // Another account's competitor that is this app: the same store app. The same id on the other store: another.
    const other = await db.trackedApp.create({ data: appData(second.accountId, storeIdOf()) });
    const competitor = await db.competitor.create({
      data: { appId: other.id, store: 'app_store', storeId, storeUrl: `https://apps.apple.com/us/app/id${storeId}` },
    });
    expect(competitor.storeAppId).toBe(a.storeAppId);
    const onPlay = await db.trackedApp.create({ data: appData(first.accountId, storeId, 'google_play') });
    expect(onPlay.storeAppId).not.toBe(a.storeAppId);

    // A value given by the caller is not kept: the database decides.
    const given = await db.trackedApp.create({
      data: { ...appData((await makeAccount('pro')).accountId, storeId), storeAppId: onPlay.storeAppId },
    });
    expect(given.storeAppId).toBe(a.storeAppId);

    expect(await db.storeApp.findUniqueOrThrow({ where: { id: a.storeAppId } })).toMatchObject({
      livemode: true,
      store: 'app_store',
      storeId,
    });
  });

  it('a test sandbox’s app is a store app of its own, never the live one', async () => {
    const owner = await makeAccount('pro');
    const sandbox = await sandboxOf(owner.accountId);
    const storeId = storeIdOf();
    const live = await db.trackedApp.create({ data: appData(owner.accountId, storeId) });
    const test = await db.trackedApp.create({ data: appData(sandbox, storeId) });
    expect(test.storeAppId).not.toBe(live.storeAppId);
    expect(await db.storeApp.findUniqueOrThrow({ where: { id: test.storeAppId } })).toMatchObject({
      livemode: false,
      storeId,
    });
  });

  it('the first sights of one store app at once make one store app', async () => {
    const accounts = await Promise.all(Array.from({ length: 8 }, () => makeAccount('pro')));
    const storeId = storeIdOf();
    const apps = await Promise.all(
      accounts.map((account) => db.trackedApp.create({ data: appData(account.accountId, storeId) })),
    );
    expect(new Set(apps.map((app) => app.storeAppId)).size).toBe(1);
    expect(await db.storeApp.count({ where: { storeId } })).toBe(1);
  });
});
