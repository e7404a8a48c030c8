import { beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@/server/core/dates';
import { db } from '@/server/db';
import { dataVersionColumns } from '@/server/db/data-versions';
import { FIXED_DAY, makeAsoApp } from '../../../../test/aso-fixture';
import { duringDeletion } from '../../../../test/concurrent-change';
import { makeAccount, makeApp } from '../../../../test/factories';
import { parseStoreUrl } from '@/server/domain/store-urls';
import { addKeywords } from '@/server/services/apps/apps';
import { addCompetitor } from './competitors';
import { dataProvider } from '@/server/services/ingest/providers';
import { refreshApp } from '@/server/services/ingest/refresh';

describe('store URLs', () => {
  it('parses App Store and Google Play addresses', () => {
    expect(parseStoreUrl('https://apps.apple.com/us/app/calm/id571800810')).toMatchObject({
      store: 'app_store',
      storeId: '571800810',
      country: 'US',
      slug: 'calm',
    });
    expect(parseStoreUrl('https://apps.apple.com/GB/app/id571800810?platform=iphone')).toMatchObject({
      store: 'app_store',
      storeId: '571800810',
      country: 'GB',
      slug: null,
    });
    expect(parseStoreUrl('https://play.google.com/store/apps/details?id=com.calm.android&hl=en')).toMatchObject({
      store: 'google_play',
      storeId: 'com.calm.android',
      canonicalUrl: 'https://play.google.com/store/apps/details?id=com.calm.android',
    });
  });

  it('refuses anything else', () => {
    for (const url of [
      'http://apps.apple.com/us/app/calm/id571800810',
      'https://apps.apple.com.evil.test/us/app/calm/id571800810',
      'https://apps.apple.com/zz/app/calm/id571800810',
      'https://apps.apple.com/us/app/calm/571800810',
      'https://apps.apple.com/us/developer/calm/id571800810',
      'https://play.google.com/store/apps/details',
      'https://play.google.com/store/apps/details?id=not a package',
      'https://play.google.com/store/apps/dev?id=123',
      'https://user:pw@apps.apple.com/us/app/calm/id571800810',
      'javascript:alert(1)',
      'calm',
      '',
    ]) {
      expect(parseStoreUrl(url), url).toBeNull();
    }
  });
});

describe('competitors', () => {
  let fixture: Awaited<ReturnType<typeof makeAsoApp>>;
  beforeAll(async () => {
    fixture = await makeAsoApp({ storeId: '700000010', terms: ['sleep'] });
  });

  it('adds a competitor once, whatever the form of its URL, and lists it', async () => {
    const id = fixture.app.id;
    const first = await fixture.caller.competitors.add({
      id,
      storeUrl: 'https://apps.apple.com/us/app/calm-sleep-meditation/id571800810',
    });
    expect(first.created).toBe(true);
    expect(first.competitor).toMatchObject({ store: 'app_store', storeId: '571800810', name: 'Calm Sleep Meditation' });
    const again = await fixture.caller.competitors.add({ id, storeUrl: 'https://apps.apple.com/gb/app/id571800810' });
    expect(again).toEqual({ competitor: first.competitor, created: false });
    const play = await fixture.caller.competitors.add({
      id,
      storeUrl: 'https://play.google.com/store/apps/details?id=com.calm.android',
    });
    expect(play.created).toBe(true);
    expect((await fixture.caller.competitors.list({ id })).map((c) => c.storeId)).toEqual([
      '571800810',
      'com.calm.android',
    ]);
    expect(await db.domainEvent.count({ where: { appId: id, type: 'competitor.added' } })).toBe(2);
  });

  it('refuses an invalid URL and the app itself', async () => {
    const id = fixture.app.id;
    await expect(fixture.caller.competitors.add({ id, storeUrl: 'https://example.com/app' })).rejects.toMatchObject({
      cause: { appCode: 'VALIDATION_ERROR' },
    });
    await expect(
      fixture.caller.competitors.add({ id, storeUrl: 'https://apps.apple.com/us/app/breathe/id700000010' }),
    ).rejects.toMatchObject({
      cause: { appCode: 'VALIDATION_ERROR' },
    });
  });
});

describe('a competitor added by two calls at once', () => {
  it('is added once: the other call answers it as already there', async () => {
    const { accountId } = await makeAccount('pro');
    const app = await makeApp(accountId);
    const storeUrl = 'https://apps.apple.com/us/app/calm-sleep-meditation/id571800810';
    const [first, second] = await Promise.all([
      addCompetitor(accountId, { appId: app.id, storeUrl }),
      addCompetitor(accountId, { appId: app.id, storeUrl }),
    ]);
    expect([first.created, second.created].sort()).toEqual([false, true]);
    expect(second.competitor).toEqual(first.competitor);
    expect(await db.domainEvent.count({ where: { accountId, type: 'competitor.added' } })).toBe(1);
  });
});

describe('the plan’s cap on competitors per app', () => {
  it('refuses the one past it whole, and two added at once at the last place leave one in', async () => {
    const { accountId } = await makeAccount('free');
    const app = await makeApp(accountId);
    const url = (n: number) => `https://apps.apple.com/us/app/rival/id7100000${n}`;
    for (const n of [10, 11, 12]) await addCompetitor(accountId, { appId: app.id, storeUrl: url(n) });
    const both = await Promise.allSettled([
      addCompetitor(accountId, { appId: app.id, storeUrl: url(13) }),
      addCompetitor(accountId, { appId: app.id, storeUrl: url(14) }),
      addCompetitor(accountId, { appId: app.id, storeUrl: url(15) }),
    ]);
    expect(both.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    expect(both.find((outcome) => outcome.status === 'rejected')).toMatchObject({
      reason: { appCode: 'LIMIT_REACHED', extras: { cap: 'competitors', limit: 5 } },
    });
    expect(await db.competitor.count({ where: { appId: app.id } })).toBe(5);
    // One already followed is answered as it is, cap or not.
    expect(await addCompetitor(accountId, { appId: app.id, storeUrl: url(10) })).toMatchObject({ created: false });
    expect(await db.domainEvent.count({ where: { accountId, type: 'competitor.added' } })).toBe(5);
  });
});

describe('a competitor added while its app is removed', () => {
  it('answers 404 and keeps nothing', async () => {
    const { accountId } = await makeAccount('pro');
    const app = await makeApp(accountId);
    const storeUrl = 'https://apps.apple.com/us/app/calm-sleep-meditation/id571800810';
    const outcome = await duringDeletion('tracked_apps', app.id, () =>
      addCompetitor(accountId, { appId: app.id, storeUrl }),
    );
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
    expect(await db.domainEvent.count({ where: { accountId, type: 'competitor.added' } })).toBe(0);
  });
});

describe('the app against its competitors', () => {
  it('gives a competitor its rank history for every tracked term as it is added, and keeps it with the app’s', async () => {
    const { owner, app, caller } = await makeAsoApp({ storeId: '700000011', terms: ['sleep', 'meditation'] });
    const calm = (
      await caller.competitors.add({ id: app.id, storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' })
    ).competitor;
    const play = (
      await caller.competitors.add({
        id: app.id,
        storeUrl: 'https://play.google.com/store/apps/details?id=com.calm.android',
      })
    ).competitor;
    // A competitor's ranks are its store app's, for the terms the app tracks, over the app's days through `through`:
    // the ranks are shared facts, and another file may observe the same store app on other days, the next one too.
    const storeAppOf = new Map(
      (await db.competitor.findMany({ where: { appId: app.id } })).map((competitor) => [
        competitor.id,
        competitor.storeAppId,
      ]),
    );
    const ranksOf = async (competitorId: string, through = FIXED_DAY) => {
      const terms = (await db.trackedKeyword.findMany({ where: { appId: app.id } })).map((keyword) => keyword.termKey);
      return db.appRank.count({
        where: {
          storeAppId: storeAppOf.get(competitorId)!,
          country: 'US',
          termKey: { in: terms },
          date: { gte: addDays(FIXED_DAY, -179), lte: through },
        },
      });
    };
    // 180 days of the app's history × 2 terms, as a keyword added gets its own; Apple's search lists no Google Play app.
    expect(await ranksOf(calm.id)).toBe(360);
    expect(await ranksOf(play.id)).toBe(0);

    const sleep = (await caller.keywords.list({ id: app.id })).find((keyword) => keyword.term === 'sleep')!;
    const history = await caller.keywords.history({ id: app.id, keywordId: sleep.keywordId, days: 30 });
    expect(history.competitors.map((competitor) => [competitor.competitorId, competitor.storeId])).toEqual([
      [calm.id, '571800810'],
      [play.id, 'com.calm.android'],
    ]);
    // The same search answer as the app's own rank, day by day.
    const observed = await dataProvider().observe(app, {
      day: FIXED_DAY,
      countries: ['US'],
      trackedTerms: [{ country: 'US', term: 'sleep' }],
      competitors: [{ store: 'app_store', storeId: '571800810' }],
      scope: 'keywords',
    });
    expect(history.points.at(-1)).toEqual({
      date: '2026-06-30',
      rank: observed.keywordRanks[0]!.rank,
      status: 'ranked',
    });
    expect(history.competitors[0]!.points.at(-1)).toEqual({
      date: '2026-06-30',
      rank: observed.competitorRanks[0]!.rank,
      status: 'ranked',
    });
    expect(history.competitors[0]!.points).toHaveLength(30);
    expect(history.competitors[0]!.points.some((point) => point.rank !== null)).toBe(true);
    // The other store's competitor is in none of this store's results: never observed here.
    expect(
      history.competitors[1]!.points.every((point) => point.rank === null && point.status === 'not_observed'),
    ).toBe(true);

    // The next day's refresh and a keyword added later carry them on; a refresh of days already seen changes nothing.
    const nextDay = addDays(FIXED_DAY, 1);
    await refreshApp(app.id, { through: nextDay });
    expect(await ranksOf(calm.id, nextDay)).toBe(362);
    await addKeywords(owner.accountId, { appId: app.id, terms: ['calm'] });
    expect(await ranksOf(calm.id, nextDay)).toBe(542);
    await refreshApp(app.id, { through: nextDay, days: 30 });
    expect(await ranksOf(calm.id, nextDay)).toBe(542);

    // The API's response cache keys an answer about the app by its versions (src/server/db/data-versions.ts): its
    // competitors' ranks, written or removed, move them as its own do.
    const version = async () =>
      (
        await db.$queryRawUnsafe<{ app_version: string }[]>(
          `SELECT ${dataVersionColumns({ app: '$1', usage: 'u' })} FROM accounts a LEFT JOIN credit_usage u ON false WHERE a.id = $2::uuid`,
          app.id,
          owner.accountId,
        )
      )[0]!.app_version;
    const before = await version();
    await db.appRank.deleteMany({ where: { storeAppId: storeAppOf.get(calm.id)!, date: addDays(FIXED_DAY, 1) } });
    const removed = await version();
    expect(removed).not.toBe(before);
    await refreshApp(app.id, { onlyCompetitors: [calm.id] });
    expect(await version()).not.toBe(removed);
    expect(await ranksOf(calm.id, nextDay)).toBe(542);
  });
});
