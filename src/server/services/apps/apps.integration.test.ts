import { describe, expect, it, vi } from 'vitest';
import { DemoProvider } from '@/server/services/ingest/demo/demo-provider';
import { duringChange, duringDeletion } from '../../../../test/concurrent-change';
import { makeAccount, makeApp } from '../../../../test/factories';
import { db } from '@/server/db';
import { addKeywords, getApp, keywordRoom, listApps, removeApp } from './apps';
import { addStorefront } from './storefronts';
import { normalizeTerm, termKeyOf } from './terms';

describe('term normalisation', () => {
  it('trims, collapses white space and folds case', () => {
    expect(normalizeTerm('  sleep \t  sounds ')).toBe('sleep sounds');
    expect(termKeyOf('Sleep  SOUNDS')).toBe(termKeyOf('sleep sounds'));
    expect(termKeyOf('Ｓｌｅｅｐ')).toBe('sleep'); // full-width letters fold (NFKC)
  });
});

describe('tracked apps are scoped to their account', () => {
  it('lists and finds only the account’s own apps', async () => {
    const mine = await makeAccount();
    const theirs = await makeAccount();
    const app = await makeApp(mine.accountId);
    const other = await makeApp(theirs.accountId);
    expect((await listApps(mine.accountId)).map((a) => a.id)).toEqual([app.id]);
    expect((await getApp(mine.accountId, app.id)).storeUrl).toBe(`https://apps.apple.com/us/app/id${app.storeId}`);
    await expect(getApp(mine.accountId, other.id)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(addKeywords(mine.accountId, { appId: other.id, terms: ['x'] })).rejects.toMatchObject({
      appCode: 'NOT_FOUND',
    });
  });
});

describe('the room for keywords', () => {
  it('counts every app and storefront of the account against its plan’s cap, and no other account', async () => {
    const owner = await makeAccount('solo');
    const other = await makeAccount('solo');
    const [first, second] = [await makeApp(owner.accountId), await makeApp(owner.accountId)];
    await addKeywords(owner.accountId, { appId: first.id, terms: ['a', 'b'] });
    await addKeywords(owner.accountId, { appId: first.id, terms: ['a'], country: 'GB' });
    await addKeywords(owner.accountId, { appId: second.id, terms: ['c'] });
    await addKeywords(other.accountId, { appId: (await makeApp(other.accountId)).id, terms: ['d'] });
    expect(await keywordRoom(owner.accountId)).toEqual({ plan: 'Solo', cap: 200, tracked: 4 });
    expect(await keywordRoom((await makeAccount('enterprise')).accountId)).toMatchObject({ cap: null, tracked: 0 });
  });
});

describe('adding keywords', () => {
  it('deduplicates case-insensitively, defaults to the primary country and reports tracked terms', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId, { primaryCountry: 'GB' });
    const first = await addKeywords(owner.accountId, {
      appId: app.id,
      terms: ['Budget Planner', 'budget  planner', 'savings'],
    });
    expect(first.country).toBe('GB');
    expect(first.added.map((k) => k.term)).toEqual(['Budget Planner', 'savings']);
    expect(first.alreadyTracked).toEqual([]);

    const again = await addKeywords(owner.accountId, { appId: app.id, terms: ['SAVINGS', 'coupons'] });
    expect(again.added.map((k) => k.term)).toEqual(['coupons']);
    expect(again.alreadyTracked.map((k) => [k.term, k.keywordId])).toEqual([['savings', first.added[1]!.keywordId]]);

    const elsewhere = await addKeywords(owner.accountId, { appId: app.id, terms: ['savings'], country: 'US' });
    expect(elsewhere.added.map((k) => [k.term, k.country])).toEqual([['savings', 'US']]);
    expect((await getApp(owner.accountId, app.id)).trackedKeywords).toBe(4);
  });

  it('adds each term once under concurrent calls', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const terms = ['alpha', 'beta', 'gamma'];
    const results = await Promise.all(
      Array.from({ length: 8 }, () => addKeywords(owner.accountId, { appId: app.id, terms })),
    );
    const addedCount = results.reduce((sum, result) => sum + result.added.length, 0);
    expect(addedCount).toBe(terms.length);
    for (const result of results) expect(result.added.length + result.alreadyTracked.length).toBe(terms.length);
    expect((await getApp(owner.accountId, app.id)).trackedKeywords).toBe(3);
  });
});

describe('an app removed while keywords are added to it', () => {
  it('answers 404 and adds nothing', async () => {
    const { accountId } = await makeAccount('pro');
    const app = await makeApp(accountId);
    const outcome = await duringDeletion('tracked_apps', app.id, () =>
      addKeywords(accountId, { appId: app.id, terms: ['white noise'] }),
    );
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
    expect(await db.domainEvent.count({ where: { accountId, type: 'keyword.added' } })).toBe(0);
  });
});

describe('an app removed while a storefront is added to it', () => {
  it('answers 404', async () => {
    const { accountId } = await makeAccount('pro');
    const app = await makeApp(accountId);
    const outcome = await duringDeletion('tracked_apps', app.id, () =>
      addStorefront(accountId, { appId: app.id, country: 'FR' }),
    );
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
  });
});

describe('an app removed twice at once (two tabs, a retried call)', () => {
  it('is removed by one; the other answers 404', async () => {
    const { accountId } = await makeAccount('pro');
    const app = await makeApp(accountId);
    const outcome = await duringDeletion('tracked_apps', app.id, () => removeApp(accountId, app.id));
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
  });
});

describe('keywords added while the app’s data is being written', () => {
  it('do not wait for a writer in the middle of a statement', async () => {
    const { accountId } = await makeAccount('pro');
    const app = await makeApp(accountId);
    // A writer of the app's data in the middle of a statement: its foreign-key check holds the app's row (FOR KEY
    // SHARE) until its trigger moves the app's data version. The app's lock (FOR NO KEY UPDATE) does not wait for it.
    let addedWhileHeld = false;
    const outcome = await duringChange(
      [{ text: 'SELECT 1 FROM tracked_apps WHERE id = $1 FOR KEY SHARE', values: [app.id] }],
      () => addKeywords(accountId, { appId: app.id, terms: ['brown noise'] }),
      (_writing, settled) => {
        addedWhileHeld = settled;
      },
    );
    expect(addedWhileHeld).toBe(true);
    expect(outcome.status === 'fulfilled' && outcome.value.added.map((keyword) => keyword.term)).toEqual([
      'brown noise',
    ]);
  });
});

describe('the tracked keyword count (kept by the database)', () => {
  it('follows inserts and deletes by any code, and cascades', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    const other = await makeApp(owner.accountId);
    await addKeywords(owner.accountId, { appId: app.id, terms: ['one', 'two', 'three'] });
    await addKeywords(owner.accountId, { appId: other.id, terms: ['four'] });
    // One statement over two apps: each app counts its own.
    await db.trackedKeyword.createMany({
      data: [
        { appId: app.id, country: 'US', term: 'five', termKey: 'five' },
        { appId: other.id, country: 'US', term: 'six', termKey: 'six' },
        { appId: other.id, country: 'US', term: 'seven', termKey: 'seven' },
      ],
    });
    await db.trackedKeyword.deleteMany({ where: { appId: app.id, termKey: { in: ['one', 'two'] } } });
    const counts = async () =>
      Object.fromEntries((await listApps(owner.accountId)).map((view) => [view.id, view.trackedKeywords]));
    expect(await counts()).toEqual({ [app.id]: 2, [other.id]: 3 });
    // Deleting an app deletes its keywords through the cascade; the trigger must not get in the way.
    await db.trackedApp.delete({ where: { id: app.id } });
    expect(await counts()).toEqual({ [other.id]: 3 });
    const rows = await db.trackedKeyword.count({ where: { appId: other.id } });
    expect(rows).toBe(3);
  });
});

describe('a keyword whose history cannot be filled at once', () => {
  it('is tracked with its event, and the call succeeds: the next refresh fills the history', async () => {
    const owner = await makeAccount();
    const app = await makeApp(owner.accountId);
    await db.trackedApp.update({
      where: { id: app.id },
      data: { refreshedThrough: new Date('2026-06-30T00:00:00.000Z') },
    });
    vi.spyOn(DemoProvider.prototype, 'observe').mockRejectedValue(new Error('the store is unreachable'));
    const logged = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const result = await addKeywords(owner.accountId, { appId: app.id, terms: ['offline term'] });
    expect(String(logged.mock.calls[0]?.[0])).toContain(
      'the data provider failed for a storefront: its data there stays as it was',
    );
    vi.restoreAllMocks();
    expect(result.added.map((keyword) => keyword.term)).toEqual(['offline term']);
    expect(await db.domainEvent.count({ where: { appId: app.id, type: 'keyword.added' } })).toBe(1);
    expect(await db.appRank.count({ where: { storeAppId: app.storeAppId } })).toBe(0);
  });
});
