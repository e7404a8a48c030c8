// Every ASO endpoint through its procedure (input and output schemas included) on deterministic data.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { addDays, isoDay } from '@/server/core/dates';
import { callerFor, FIXED_DAY, makeAsoApp } from '../../../../test/aso-fixture';
import { makeApp, storeAppOf } from '../../../../test/factories';
import { headroom } from './opportunities';

type Fixture = Awaited<ReturnType<typeof makeAsoApp>>;
let fixture: Fixture;
let id: string;

beforeAll(async () => {
  fixture = await makeAsoApp();
  id = fixture.app.id;
}, 180_000);

describe('keywords', () => {
  it('lists tracked keywords with SPEC’s fields, best rank first, rankDelta from the history', async () => {
    const items = await fixture.caller.keywords.list({ id });
    expect(items).toHaveLength(5);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual([
        'country',
        'difficulty',
        'isFavorite',
        'keywordId',
        'observedOn',
        'rank',
        'rankDelta',
        'rankStatus',
        'term',
        'volume',
      ]);
      expect(item.country).toBe('US');
    }
    const ranks = items.map((item) => item.rank ?? Infinity);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);

    for (const window of ['1d', '7d', '30d', '90d'] as const) {
      const days = { '1d': 1, '7d': 7, '30d': 30, '90d': 90 }[window];
      const listed = await fixture.caller.keywords.list({ id, rankWindow: window });
      for (const item of listed) {
        const history = await fixture.caller.keywords.history({ id, keywordId: item.keywordId, days: days + 1 });
        const then = history.points[0]!.rank;
        const now = history.points.at(-1)!.rank;
        expect(item.rank).toBe(now);
        // Null when an end is not a rank (Aso-Version 2026-11-29; older versions answer 0: api-versions tests).
        expect(item.rankDelta).toBe(now !== null && then !== null ? then - now : null);
      }
    }
  });

  it('reports volume and difficulty of the last day, equal to the metrics history', async () => {
    const [first] = await fixture.caller.keywords.list({ id });
    const metrics = await fixture.caller.keywords.metricsHistory({ id, keywordId: first!.keywordId });
    expect(metrics.points).toHaveLength(180);
    expect(metrics.to).toBe(isoDay(FIXED_DAY));
    expect(metrics.points.at(-1)).toEqual({
      date: '2026-06-30',
      volume: first!.volume,
      difficulty: first!.difficulty,
      status: 'observed',
    });
  });

  it('answers a daily series over `days`, defaulting to 30', async () => {
    const [first] = await fixture.caller.keywords.list({ id });
    const history = await fixture.caller.keywords.history({ id, keywordId: first!.keywordId });
    expect(history.points).toHaveLength(30);
    expect(history.from).toBe(isoDay(addDays(FIXED_DAY, -29)));
    expect(history.points.map((point) => point.date)).toEqual(
      Array.from({ length: 30 }, (_, i) => isoDay(addDays(FIXED_DAY, i - 29))),
    );
    expect((await fixture.caller.keywords.history({ id, keywordId: first!.keywordId, days: 365 })).points).toHaveLength(
      365,
    );
  });

  it('404s an unknown keyword id and a keyword of another app or account', async () => {
    const other = await makeAsoApp({ storeId: '1583324716', terms: ['budget'] });
    const [foreign] = await other.caller.keywords.list({ id: other.app.id });
    await expect(fixture.caller.keywords.history({ id, keywordId: randomUUID() })).rejects.toMatchObject({
      cause: { appCode: 'NOT_FOUND' },
    });
    await expect(fixture.caller.keywords.history({ id, keywordId: foreign!.keywordId })).rejects.toMatchObject({
      cause: { appCode: 'NOT_FOUND' },
    });
    await expect(
      fixture.caller.keywords.metricsHistory({ id: other.app.id, keywordId: foreign!.keywordId }),
    ).rejects.toMatchObject({ cause: { appCode: 'NOT_FOUND' } });
    // Same account, another app: still 404.
    const sibling = await makeApp(fixture.owner.accountId);
    await expect(
      fixture.caller.keywords.history({
        id: sibling.id,
        keywordId: (await fixture.caller.keywords.list({ id }))[0]!.keywordId,
      }),
    ).rejects.toMatchObject({
      cause: { appCode: 'NOT_FOUND' },
    });
  });

  it('lists every ranked term in keyword spy, flagging the tracked ones', async () => {
    const spy = await fixture.caller.apps.keywordSpy({ id });
    expect(spy.date).toBe('2026-06-30');
    expect(spy.keywords.length).toBeGreaterThan(10);
    const ranks = spy.keywords.map((keyword) => keyword.rank);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    expect(ranks.every((rank) => rank >= 1 && rank <= 200)).toBe(true);
    const tracked = await fixture.caller.keywords.list({ id });
    for (const keyword of spy.keywords.filter((entry) => entry.tracked)) {
      expect(tracked.find((item) => item.keywordId === keyword.keywordId)?.rank).toBe(keyword.rank);
    }
    expect(spy.keywords.filter((entry) => entry.tracked).length).toBe(
      tracked.filter((item) => item.rank !== null).length,
    );
  });

  it('researches a term: volume and difficulty of the store, top apps, and this app’s rank', async () => {
    const research = await fixture.caller.keywords.research({ id, term: '  Sleep Sounds ' });
    expect(research).toMatchObject({ term: 'Sleep Sounds', country: 'US' });
    expect(research.topApps.map((app) => app.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(research.volume).toBeGreaterThan(0);
    const [listed] = (await fixture.caller.keywords.list({ id })).filter((item) => item.term === 'sleep sounds');
    expect(research.yourRank).toBe(listed!.rank);
    expect((await fixture.caller.keywords.research({ id, term: 'budget', country: 'gb' })).country).toBe('GB');
  });
});

describe('opportunities', () => {
  it('ranks candidates by the documented formula and honours the limit', async () => {
    const result = await fixture.caller.apps.opportunities({ id });
    expect(result.items.length).toBeLessThanOrEqual(50);
    const scores = result.items.map((item) => item.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Candidates: every term ranked or tracked on the last day.
    const storeAppId = await storeAppOf(id);
    const tracked = (await db.trackedKeyword.findMany({ where: { appId: id, country: 'US' } })).map(
      (keyword) => keyword.termKey,
    );
    const candidates = await db.appRank.findMany({
      where: {
        storeAppId,
        country: 'US',
        date: FIXED_DAY,
        OR: [{ rank: { not: null } }, { termKey: { in: tracked } }],
      },
      select: { termKey: true },
    });
    const metrics = await db.keywordMetric.findMany({
      where: { country: 'US', date: FIXED_DAY, termKey: { in: candidates.map((c) => c.termKey) } },
    });
    const maxVolume = Math.max(...metrics.map((m) => m.volume));
    for (const item of result.items.slice(0, 5)) {
      const expected =
        Math.round(
          1000 *
            (Math.log10(item.volume + 1) / Math.log10(maxVolume + 1)) *
            (1 - item.difficulty / 100) *
            headroom(item.rank),
        ) / 10;
      expect(item.score).toBeCloseTo(expected, 5);
      expect(item.reason).toContain(item.volume.toLocaleString('en-US'));
    }
    expect((await fixture.caller.apps.opportunities({ id, limit: 3 })).items.map((item) => item.position)).toEqual([
      1, 2, 3,
    ]);
  });
});

describe('ASO score', () => {
  it('is the weighted sum of its pillars, deterministic, with concrete recommendations', async () => {
    const first = await fixture.caller.apps.asoScore({ id });
    expect(await fixture.caller.apps.asoScore({ id })).toEqual(first);
    const { metadata, keywords, ratingsAndReviews, creativesAndConversion } = first.pillars;
    expect(first.score).toBe(
      Math.round(
        metadata.score * 0.3 +
          keywords.score * 0.3 +
          ratingsAndReviews.score * 0.25 +
          creativesAndConversion.score * 0.15,
      ),
    );
    expect(first.score).toBeGreaterThanOrEqual(0);
    expect(first.score).toBeLessThanOrEqual(100);
    expect(metadata.inputs.titleLength).toBe('Breathe: Sleep & Meditation'.length);
    expect(first.recommendations.some((r) => /uses \d+ of \d+ characters/.test(r.message))).toBe(true);
  });
});

describe('reviews', () => {
  it('paginates with totals, filters by rating and sorts', async () => {
    const page = await fixture.caller.reviews.list({ id });
    expect(page).toMatchObject({ page: 1, pageSize: 20 });
    expect(page.totalPages).toBe(Math.ceil(page.total / 20));
    expect(page.items).toHaveLength(20);
    const times = page.items.map((item) => item.reviewedAt);
    expect([...times].sort().reverse()).toEqual(times);
    const last = await fixture.caller.reviews.list({ id, page: page.totalPages, pageSize: 20 });
    expect(last.items).toHaveLength(page.total - 20 * (page.totalPages - 1));
    expect((await fixture.caller.reviews.list({ id, page: page.totalPages + 1 })).items).toEqual([]);
    const ones = await fixture.caller.reviews.list({ id, rating: 1, pageSize: 100 });
    expect(ones.items.every((item) => item.rating === 1)).toBe(true);
    const lowest = await fixture.caller.reviews.list({ id, sort: 'lowest', pageSize: 5 });
    expect(lowest.items[0]!.rating).toBe(1);
    const highest = await fixture.caller.reviews.list({ id, sort: 'highest', pageSize: 5 });
    expect(highest.items[0]!.rating).toBe(5);
    const oldest = await fixture.caller.reviews.list({ id, sort: 'oldest', pageSize: 1 });
    expect(oldest.items[0]!.reviewedAt < times.at(-1)!).toBe(true);
  });

  it('filters by sentiment label exactly as each review is labelled, and the labels partition the reviews', async () => {
    const all = await fixture.caller.reviews.list({ id, pageSize: 100 });
    let counted = 0;
    for (const label of ['positive', 'neutral', 'negative'] as const) {
      const page = await fixture.caller.reviews.list({ id, sentiment: label, pageSize: 100 });
      expect(
        page.items.every((item) => item.sentiment.label === label),
        label,
      ).toBe(true);
      counted += page.total;
      const withRating = await fixture.caller.reviews.list({ id, sentiment: label, rating: 1, pageSize: 100 });
      expect(withRating.items.every((item) => item.sentiment.label === label && item.rating === 1)).toBe(true);
    }
    expect(counted).toBe(all.total);
  });

  it('derives insights whose counts add up and whose examples are this app’s reviews', async () => {
    const insights = await fixture.caller.reviews.insights({ id });
    const { positive, neutral, negative } = insights.sentiment;
    expect(positive.count + neutral.count + negative.count).toBe(insights.reviewCount);
    expect(insights.reviewCount).toBeGreaterThan(50);
    expect(insights.bugReports.count).toBeGreaterThan(0);
    expect(insights.featureRequests.requests.length).toBeGreaterThan(0);
    expect(insights.topTopics.length).toBeGreaterThan(3);
    const exampleIds = [
      ...insights.bugReports.exampleReviewIds,
      ...insights.topTopics.flatMap((topic) => topic.exampleReviewIds),
    ];
    const found = await db.review.findMany({
      where: { id: { in: exampleIds } },
      select: { storeAppId: true, bugReport: true, id: true },
    });
    const storeAppId = await storeAppOf(id);
    expect(new Set(found.map((review) => review.storeAppId))).toEqual(new Set([storeAppId]));
    for (const bugId of insights.bugReports.exampleReviewIds)
      expect(found.find((review) => review.id === bugId)?.bugReport).toBe(true);
  });
});

describe('charts and listing', () => {
  it('answers category rank and rating series', async () => {
    const chart = await fixture.caller.apps.categoryRank({ id });
    expect(chart).toMatchObject({ country: 'US', category: 'Health & Fitness', to: '2026-06-30' });
    expect(chart.points).toHaveLength(30);
    const ratings = await fixture.caller.apps.ratingHistory({ id });
    expect(ratings.points).toHaveLength(180);
    const counts = ratings.points.map((point) => point.count);
    expect([...counts].sort((a, b) => a - b)).toEqual(counts);
  });

  it('serves the current listing and a changelog consistent with it', async () => {
    const listing = await fixture.caller.metadata.get({ id });
    const { changes } = await fixture.caller.metadata.changelog({ id });
    expect(changes.length).toBeGreaterThan(5);
    const newestVersion = changes.find((change) => change.field === 'version')!;
    expect(newestVersion.after).toBe(listing.version);
    expect(newestVersion.before).not.toBe(listing.version);
    // A storefront the app was never observed in is observed on its first read (issue 41), and tracked from then on.
    expect(await fixture.caller.metadata.get({ id, country: 'JP' })).toMatchObject({
      country: 'JP',
      title: expect.any(String),
    });
    expect((await fixture.caller.apps.get({ id })).storefronts).toContain('JP');
  });
});

describe('isolation', () => {
  it('answers 404 for every endpoint on another account’s app', async () => {
    const stranger = callerFor((await makeAsoApp({ storeId: '999000111', terms: ['x'] })).owner.accountId);
    const calls = [
      () => stranger.keywords.list({ id }),
      () => stranger.apps.asoScore({ id }),
      () => stranger.apps.opportunities({ id }),
      () => stranger.apps.keywordSpy({ id }),
      () => stranger.apps.categoryRank({ id }),
      () => stranger.apps.ratingHistory({ id }),
      () => stranger.keywords.research({ id, term: 'sleep' }),
      () => stranger.reviews.list({ id }),
      () => stranger.reviews.insights({ id }),
      () => stranger.metadata.get({ id }),
      () => stranger.metadata.changelog({ id }),
      () => stranger.competitors.list({ id }),
      () => stranger.competitors.add({ id, storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' }),
    ];
    for (const call of calls) await expect(call()).rejects.toMatchObject({ cause: { appCode: 'NOT_FOUND' } });
    expect(await db.competitor.count({ where: { appId: id } })).toBe(0);
  });
});
