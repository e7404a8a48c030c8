import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { addDays } from '@/server/core/dates';
import { addKeywords } from '@/server/services/apps/apps';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { callerFor, FIXED_DAY, makeAsoApp } from '../../../../test/aso-fixture';
import { makeAccount, storeAppOf } from '../../../../test/factories';
import { fixtureSlug } from '../../../../test/stores/fixture-names';
import { APP_STORE_PLAN, loadAppStoreFixture, recordedFetch } from '../../../../test/stores/recorded-app-store';
import { AppStoreProvider, type FetchJson } from './stores/app-store/app-store-provider';
import { StoresProvider } from './stores/stores-provider';
import { termKeyOf } from '@/server/services/apps/terms';
import { dataProvider } from './providers';
import type { ObservationRequest, ProviderApp } from './provider';
import { LISTING_FIELDS, refreshAllApps, refreshApp } from './refresh';

async function counts(appId: string) {
  const storeAppId = await storeAppOf(appId);
  const [ranks, reviews, snapshots, changes, ratings, events] = await Promise.all([
    db.appRank.count({ where: { storeAppId } }),
    db.review.count({ where: { storeAppId } }),
    db.metadataSnapshot.count({ where: { storeAppId } }),
    db.metadataChange.count({ where: { storeAppId } }),
    db.ratingSnapshot.count({ where: { storeAppId } }),
    db.domainEvent.count({ where: { appId } }),
  ]);
  return { ranks, reviews, snapshots, changes, ratings, events };
}

describe('the refresh job', () => {
  it('stores the ranks (null when unranked) and metrics the provider observed, as they were observed', async () => {
    const { app } = await makeAsoApp({ storeId: '700000009', terms: ['meditation', 'zzz unranked term xq'] });
    const tracked = await db.trackedKeyword.findMany({
      where: { appId: app.id },
      select: { term: true, country: true },
    });
    const observed = await dataProvider().observe(app, {
      day: FIXED_DAY,
      countries: ['US'],
      trackedTerms: tracked,
      competitors: [],
      scope: 'full',
    });
    const ranks = await db.appRank.findMany({
      where: { storeAppId: app.storeAppId, date: FIXED_DAY },
      select: { country: true, term: true, rank: true },
    });
    const byTerm = (a: { term: string }, b: { term: string }) => a.term.localeCompare(b.term);
    expect(ranks.sort(byTerm)).toEqual(
      observed.keywordRanks.map(({ country, term, rank }) => ({ country, term, rank })).sort(byTerm),
    );
    expect(ranks.find((row) => row.term === 'zzz unranked term xq')).toEqual({
      country: 'US',
      term: 'zzz unranked term xq',
      rank: null,
    });
    const metrics = await db.keywordMetric.findMany({
      where: {
        country: 'US',
        date: FIXED_DAY,
        termKey: { in: observed.keywordMetrics.map((entry) => termKeyOf(entry.term)) },
      },
      select: { termKey: true, volume: true, difficulty: true },
    });
    expect(metrics.sort((a, b) => a.termKey.localeCompare(b.termKey))).toEqual(
      observed.keywordMetrics
        .map((entry) => ({ termKey: termKeyOf(entry.term), volume: entry.volume, difficulty: entry.difficulty }))
        .sort((a, b) => a.termKey.localeCompare(b.termKey)),
    );
  });

  it('backfills 180 days quietly, and is idempotent', async () => {
    const { app } = await makeAsoApp({ storeId: '700000001' });
    const after = await counts(app.id);
    expect(after.ratings).toBe(180);
    expect(after.reviews).toBeGreaterThan(100);
    expect(after.changes).toBeGreaterThan(0); // releases happened during the backfill
    expect(after.snapshots).toBeGreaterThan(1);
    // Backfill is history, not news: only the keyword.added events of the fixture.
    expect(await db.domainEvent.count({ where: { appId: app.id, type: { not: 'keyword.added' } } })).toBe(0);

    const again = await refreshApp(app.id, { through: FIXED_DAY, days: 30 });
    expect(again.days).toHaveLength(30);
    expect(again.reviews).toBe(0);
    expect(await counts(app.id)).toEqual(after);
  });

  it('ingests new days, deriving changelog rows and recording events', async () => {
    const { app, owner } = await makeAsoApp({ storeId: '700000002' });
    const before = await db.metadataChange.count({ where: { storeAppId: app.storeAppId } });
    // Four weeks later at least one release has happened.
    const summary = await refreshApp(app.id, { through: addDays(FIXED_DAY, 28) });
    expect(summary.days).toHaveLength(28);
    expect(summary.metadataChanges).toBeGreaterThan(0);
    expect(await db.metadataChange.count({ where: { storeAppId: app.storeAppId } })).toBe(
      before + summary.metadataChanges,
    );
    const events = await db.domainEvent.findMany({ where: { appId: app.id, type: { not: 'keyword.added' } } });
    expect(summary.events).toBe(events.length);
    const types = new Set(events.map((event) => event.type));
    expect(types).toEqual(new Set(['app.metadata_changed', 'review.created', 'keyword.rank_changed']));
    expect(events.every((event) => event.accountId === owner.accountId)).toBe(true);
    const movement = events.find((event) => event.type === 'keyword.rank_changed')!.data as {
      previousRank: number | null;
      rank: number | null;
    };
    const moved =
      movement.previousRank === null || movement.rank === null || Math.abs(movement.previousRank - movement.rank) >= 5;
    expect(moved).toBe(true);

    // The same days again: no event twice.
    await refreshApp(app.id, { through: addDays(FIXED_DAY, 28), days: 28 });
    expect(await db.domainEvent.count({ where: { appId: app.id, type: { not: 'keyword.added' } } })).toBe(
      events.length,
    );
  });

  it('gives a keyword added later its whole history at once', async () => {
    const { app, owner, caller } = await makeAsoApp({ storeId: '700000003', terms: ['meditation'] });
    await addKeywords(owner.accountId, { appId: app.id, terms: ['white noise'] });
    const listed = await caller.keywords.list({ id: app.id });
    const added = listed.find((item) => item.term === 'white noise')!;
    expect(added.volume).not.toBeNull();
    const history = await caller.keywords.metricsHistory({ id: app.id, keywordId: added.keywordId, days: 180 });
    expect(history.points.every((point) => point.volume !== null)).toBe(true);
  });

  it('stores any term as it was given: quotes, commas, braces, backslashes, NULL, emoji', async () => {
    const terms = ['a,b', 'say "hi"', 'back\\slash', '{brace}', 'NULL', "it's", 'sleep 😴 sounds', 'ü ß ø'];
    const { app, owner } = await makeAsoApp({ storeId: '700000004', terms: ['meditation'] });
    await addKeywords(owner.accountId, { appId: app.id, terms });
    const stored = await db.appRank.findMany({
      where: { storeAppId: app.storeAppId, date: FIXED_DAY, term: { in: terms } },
      select: { term: true, termKey: true },
    });
    expect(stored.map((row) => row.term).sort()).toEqual([...terms].sort());
    for (const row of stored) expect(row.termKey).toBe(termKeyOf(row.term));
    const metrics = await db.keywordMetric.count({
      where: { country: 'US', date: FIXED_DAY, termKey: { in: terms.map(termKeyOf) } },
    });
    expect(metrics).toBe(new Set(terms.map(termKeyOf)).size);
  });
});

describe('a refresh of every app', () => {
  it('refreshes the apps the store answers for, and leaves the data of one it fails as it was', async () => {
    const { app: answered } = await makeAsoApp({ storeId: '700000091' });
    const { app: failing } = await makeAsoApp({ storeId: '700000092' });
    const before = { answered: await counts(answered.id), failing: await counts(failing.id) };
    const demo = dataProvider();
    // The store answers for one app only: the others (this test's second app, and other tests' apps) fail before
    // anything of theirs is written.
    const provider = Object.assign(Object.create(demo), {
      observe: (app: ProviderApp, request: ObservationRequest) =>
        app.storeId === '700000091' ? demo.observe(app, request) : Promise.reject(new Error('the store answered 503')),
    });
    const run = await refreshAllApps({ provider, through: addDays(FIXED_DAY, 1) });

    expect(run.summaries.find((summary) => summary.appId === answered.id)?.days).toEqual(['2026-07-01']);
    expect(run.failures.find((failure) => failure.appId === failing.id)?.error).toMatchObject({
      message: 'US: the store answered 503',
    });
    expect(run.failures.some((failure) => failure.appId === answered.id)).toBe(false);
    expect((await counts(answered.id)).ratings).toBe(before.answered.ratings + 1);
    // The failed app keeps what it had, through the day it had.
    expect(await counts(failing.id)).toEqual(before.failing);
    const failed = await db.trackedApp.findUniqueOrThrow({ where: { id: failing.id }, include: { storefronts: true } });
    expect(failed.refreshedThrough).toEqual(FIXED_DAY);
    // Its health says so: the failure and when, and no new observation.
    expect(failed).toMatchObject({
      lastProviderError: 'the store answered 503',
      lastProviderErrorAt: expect.any(Date),
    });
    expect(failed.storefronts).toEqual([
      expect.objectContaining({
        country: 'US',
        lastError: 'the store answered 503',
        lastErrorAt: failed.lastProviderErrorAt,
      }),
    ]);
    expect(failed.lastObservedAt === null || failed.lastObservedAt < failed.lastProviderErrorAt!).toBe(true);
    const observed = await db.trackedApp.findUniqueOrThrow({
      where: { id: answered.id },
      include: { storefronts: true },
    });
    expect(observed.lastObservedAt).toEqual(expect.any(Date));
    expect(observed.storefronts.map((storefront) => storefront.lastObservedAt)).toEqual([observed.lastObservedAt]);
  });

  it('stores the storefronts the store answers for, and keeps the data of one it fails', async () => {
    const { app } = await makeAsoApp({ storeId: '700000093' });
    await addKeywords(app.accountId, { appId: app.id, terms: ['sleep sounds'], country: 'DE' });
    const ranksIn = (country: string) => db.appRank.count({ where: { storeAppId: app.storeAppId, country } });
    const before = { US: await ranksIn('US'), DE: await ranksIn('DE') };
    const demo = dataProvider();
    const provider = Object.assign(Object.create(demo), {
      observe: (target: ProviderApp, request: ObservationRequest) =>
        request.countries.includes('DE')
          ? Promise.reject(new Error('timed out after 10000 ms'))
          : demo.observe(target, request),
    });
    const summary = await refreshApp(app.id, { provider, through: addDays(FIXED_DAY, 1) });

    expect(summary.failures).toEqual([{ country: 'DE', error: 'timed out after 10000 ms', notSold: false }]);
    expect(await ranksIn('DE')).toBe(before.DE);
    expect(await ranksIn('US')).toBeGreaterThan(before.US);
    const storefronts = await db.appStorefront.findMany({ where: { appId: app.id }, orderBy: { country: 'asc' } });
    expect(storefronts).toEqual([
      expect.objectContaining({ country: 'DE', lastError: 'timed out after 10000 ms' }),
      expect.objectContaining({ country: 'US', lastError: null, lastObservedAt: expect.any(Date) }),
    ]);
  });
});

/**
 * The App Store on Apple's recorded answers, each call counted by kind. `aliases`: store ids answered as Calm's
 * recorded lookup and reviews are (with their own id), so that several distinct store apps can be observed.
 */
function countingAppStore(aliases: string[] = []) {
  const requested: string[] = [];
  const recorded = recordedFetch(requested);
  const fetchJson: FetchJson = async (url, options) => {
    const alias = aliases.find((id) => url.includes(`id=${id}`));
    if (!alias) return recorded(url, options);
    const answer = (await recorded(url.replace(`id=${alias}`, `id=${APP_STORE_PLAN.appId}`), options)) as {
      results?: Record<string, unknown>[];
    };
    return answer.results
      ? { ...answer, results: answer.results.map((result) => ({ ...result, trackId: Number(alias) })) }
      : answer;
  };
  const provider = new StoresProvider({ app_store: new AppStoreProvider(fetchJson) });
  const calls = () => {
    const kinds = requested.map((url) => {
      const { pathname } = new URL(url);
      return pathname === '/search'
        ? 'search'
        : pathname === '/lookup'
          ? 'lookup'
          : pathname.includes('customerreviews')
            ? 'reviews'
            : 'chart';
    });
    return Object.fromEntries(
      ['search', 'lookup', 'reviews', 'chart'].map((kind) => [kind, kinds.filter((each) => each === kind).length]),
    );
  };
  return { provider, calls };
}

describe('one store app followed by many accounts', () => {
  it('asks the store each question once a day, and stores its answers once, whether 1, 5 or 20 accounts track the app', async () => {
    const { appId, competitorId, terms } = APP_STORE_PLAN;
    const asked: Record<string, number>[] = [];
    const rows: number[] = [];
    const stored: number[] = [];
    for (const [index, accounts] of [1, 5, 20].entries()) {
      // A day of its own for each N: what earlier days observed is no help.
      const day = addDays(FIXED_DAY, 100 + index);
      const apps = [];
      for (let count = 0; count < accounts; count++) {
        const owner = await makeAccount('pro');
        const app = await db.trackedApp.create({
          data: {
            accountId: owner.accountId,
            store: 'app_store',
            storeId: appId,
            bundleId: 'com.calm.Calm',
            name: 'Calm',
            developer: 'Calm.com, Inc.',
            category: 'Health & Fitness',
            primaryCountry: 'US',
          },
        });
        await db.trackedKeyword.createMany({
          data: terms.map((term) => ({ appId: app.id, country: 'US', term, termKey: termKeyOf(term) })),
        });
        await db.competitor.create({
          data: {
            appId: app.id,
            store: 'app_store',
            storeId: competitorId,
            storeUrl: `https://apps.apple.com/us/app/id${competitorId}`,
          },
        });
        apps.push(app);
      }
      const { provider, calls } = countingAppStore();
      for (const app of apps) expect((await refreshApp(app.id, { provider, through: day })).failures).toEqual([]);
      asked.push(calls());
      const [rankRows, ratings, charts, reviews] = await Promise.all([
        db.appRank.count({ where: { date: day } }),
        db.ratingSnapshot.count({ where: { date: day } }),
        db.categoryRank.count({ where: { date: day } }),
        db.review.count({ where: { storeAppId: apps[0]!.storeAppId } }),
      ]);
      rows.push(rankRows + ratings + charts);
      stored.push(reviews);

      // Every account reads the same ranks, its competitor's among them.
      const ranks = await Promise.all(
        apps.map(async (app) => {
          const caller = callerFor(app.accountId);
          const keyword = (await caller.keywords.list({ id: app.id })).find((entry) => entry.term === terms[0])!;
          const history = await caller.keywords.history({ id: app.id, keywordId: keyword.keywordId, days: 1 });
          return [history.points[0]!.rank, history.competitors[0]!.points[0]!.rank];
        }),
      );
      expect(new Set(ranks.map((pair) => JSON.stringify(pair))).size).toBe(1);
    }
    // One search per tracked term, one lookup, one page of reviews and one chart, whatever the number of followers; as
    // many rows a day (a rank per term for the app and its competitor, the rating, the chart place); and each review
    // (the same recorded page every day) stored once.
    const once = { search: terms.length, lookup: 1, reviews: 1, chart: 1 };
    expect(asked).toEqual([once, once, once]);
    expect(rows).toEqual([2 * terms.length + 2, 2 * terms.length + 2, 2 * terms.length + 2]);
    expect(stored[0]).toBeGreaterThan(0);
    expect(stored).toEqual([stored[0], stored[0], stored[0]]);
  });
});

describe('a term tracked for different store apps', () => {
  it('is searched once a day: every app’s and competitor’s rank is its place in the one stored answer', async () => {
    const { appId, terms } = APP_STORE_PLAN;
    // Places 1 and 4 of the recorded answer for the first term; in no other.
    const [otherId, competitorId] = ['1000000000', '1000015838'];
    const placeIn = (term: string, storeId: string) => {
      const { results } = loadAppStoreFixture(`search-us-${fixtureSlug(term)}.json`) as {
        results: { trackId: number }[];
      };
      const index = results.findIndex((result) => String(result.trackId) === storeId);
      return index === -1 ? null : index + 1;
    };
    const day = addDays(FIXED_DAY, 130);
    const make = async (storeId: string, tracked: readonly string[]) => {
      const owner = await makeAccount('pro');
      const app = await db.trackedApp.create({
        data: {
          accountId: owner.accountId,
          store: 'app_store',
          storeId,
          bundleId: `com.example.${storeId}`,
          name: 'App',
          developer: 'Dev',
          category: 'Health & Fitness',
          primaryCountry: 'US',
        },
      });
      await db.trackedKeyword.createMany({
        data: tracked.map((term) => ({ appId: app.id, country: 'US', term, termKey: termKeyOf(term) })),
      });
      return app;
    };
    const first = await make(appId, terms);
    const second = await make(otherId, terms.slice(0, 1));
    const { provider, calls } = countingAppStore([otherId]);
    await refreshApp(first.id, { provider, through: day });
    await refreshApp(second.id, { provider, through: day });
    // The second app's observation asks its lookup, reviews and chart, and no search.
    expect(calls()).toEqual({ search: terms.length, lookup: 2, reviews: 2, chart: 2 });
    const rankOf = async (storeAppId: number, term: string) =>
      (
        await db.appRank.findUniqueOrThrow({
          where: {
            storeAppId_country_termKey_date: { storeAppId, country: 'US', termKey: termKeyOf(term), date: day },
          },
        })
      ).rank;
    expect(await rankOf(second.storeAppId, terms[0]!)).toBe(1);
    expect(await db.searchAnswer.count({ where: { date: day } })).toBe(terms.length);

    // A keyword the first app tracks, added to the second: its rank from the stored answer, without a search.
    await refreshApp(second.id, { provider, through: day, onlyTerms: [{ country: 'US', term: terms[1]! }] });
    expect(await rankOf(second.storeAppId, terms[1]!)).toBe(placeIn(terms[1]!, otherId));
    // A competitor added from the live store: its places in the answers of the app's last day, without a call.
    const competitor = await db.competitor.create({
      data: {
        appId: first.id,
        store: 'app_store',
        storeId: competitorId,
        storeUrl: `https://apps.apple.com/us/app/id${competitorId}`,
      },
    });
    await refreshApp(first.id, { provider, onlyCompetitors: [competitor.id] });
    expect(await rankOf(competitor.storeAppId, terms[0]!)).toBe(4);
    for (const term of terms) expect(await rankOf(competitor.storeAppId, term)).toBe(placeIn(term, competitorId));
    expect(calls()).toEqual({ search: terms.length, lookup: 2, reviews: 2, chart: 2 });

    // A test sandbox's app never reads the stores' answers, nor they its own: its search is asked, and kept apart.
    const sandboxApp = await db.trackedApp.create({
      data: {
        accountId: await sandboxOf(first.accountId),
        store: 'app_store',
        storeId: otherId,
        bundleId: 'com.example.sandbox',
        name: 'App',
        developer: 'Dev',
        category: 'Health & Fitness',
        primaryCountry: 'US',
      },
    });
    await db.trackedKeyword.create({
      data: { appId: sandboxApp.id, country: 'US', term: terms[0]!, termKey: termKeyOf(terms[0]!) },
    });
    await refreshApp(sandboxApp.id, { provider, through: day });
    expect(calls().search).toBe(terms.length + 1);
    expect(
      await db.searchAnswer.groupBy({
        by: ['livemode'],
        where: { date: day, termKey: termKeyOf(terms[0]!) },
        _count: true,
      }),
    ).toEqual(
      expect.arrayContaining([
        { livemode: true, _count: 1 },
        { livemode: false, _count: 1 },
      ]),
    );
  }, 60_000);
});

describe('a store app’s listings', () => {
  it('make the same chain whichever follower observed which days, in whatever order', async () => {
    const storeId = '700000301';
    const make = async () => {
      const owner = await makeAccount('pro');
      return db.trackedApp.create({
        data: {
          accountId: owner.accountId,
          store: 'app_store',
          storeId,
          bundleId: 'com.example.chain',
          name: 'Chain',
          developer: 'Chain Labs',
          category: 'Health & Fitness',
          primaryCountry: 'US',
        },
      });
    };
    // One follower observes the later half year, another the year that ends 90 days before it and overlaps it.
    await refreshApp((await make()).id, { through: FIXED_DAY });
    const earlier = await make();
    await refreshApp(earlier.id, { through: addDays(FIXED_DAY, -90), days: 270 });

    // What one refresh of every day in order makes, from the provider's listing of each day.
    const first = addDays(FIXED_DAY, -359);
    const expected: { day: string; version: string }[] = [];
    const fields: string[] = [];
    let last: Record<string, unknown> | null = null;
    for (let day = first; day <= FIXED_DAY; day = addDays(day, 1)) {
      const { listings } = await dataProvider().observe(earlier, {
        day,
        countries: ['US'],
        trackedTerms: [],
        competitors: [],
        scope: 'full',
      });
      const listing = listings[0]!.listing as unknown as Record<string, unknown>;
      const changed = last ? LISTING_FIELDS.filter((field) => String(last![field]) !== String(listing[field])) : null;
      if (changed && !changed.length) continue;
      expected.push({ day: day.toISOString(), version: String(listing.version) });
      fields.push(...(changed ?? []).map((field) => `${day.toISOString()} ${field}`));
      last = listing;
    }
    const snapshots = await db.metadataSnapshot.findMany({
      where: { storeAppId: earlier.storeAppId, country: 'US' },
      orderBy: { capturedAt: 'asc' },
    });
    expect(snapshots.map((row) => ({ day: row.capturedAt.toISOString(), version: row.version }))).toEqual(expected);
    const changes = await db.metadataChange.findMany({
      where: { storeAppId: earlier.storeAppId, country: 'US' },
      orderBy: [{ changedAt: 'asc' }, { field: 'asc' }],
    });
    expect(changes.map((row) => `${row.changedAt.toISOString()} ${row.field}`)).toEqual([...fields].sort());
  });
});

describe('the events of a store app followed by two accounts', () => {
  it('each follower gets those of the days that are news to it, whichever refresh stored the facts', async () => {
    const { app: first } = await makeAsoApp({ storeId: '700000401' });
    const { app: second } = await makeAsoApp({ storeId: '700000401' });
    expect(second.storeAppId).toBe(first.storeAppId);
    await refreshApp(first.id, { through: addDays(FIXED_DAY, 28) });
    // The second's refresh finds every fact of those days stored, and still tells its account of them.
    const summary = await refreshApp(second.id, { through: addDays(FIXED_DAY, 28) });
    expect(summary.reviews).toBe(0);
    const told = async (appId: string) =>
      (await db.domainEvent.findMany({ where: { appId, type: { not: 'keyword.added' } } }))
        .map((event) => `${event.type} ${JSON.stringify({ ...(event.data as object), appId: undefined })}`)
        .sort();
    const events = await told(first.id);
    expect(new Set(events.map((event) => event.split(' ')[0]))).toEqual(
      new Set(['app.metadata_changed', 'review.created', 'keyword.rank_changed']),
    );
    expect(await told(second.id)).toEqual(events);
  });
});
