// The refresh's bulk inserts of JSON rows store what Prisma's createMany stored: every value as given, lists of any
// length and content, SQL NULL for an absent histogram, and a review already stored left alone.
import { describe, expect, it } from 'vitest';
import { db, hotQuery } from './index';
import { insertRatingSnapshots, insertReviews, type ReviewRow } from './ingest-statements';
import { makeAccount, makeApp } from '../../../test/factories';

const AWKWARD = ['a, b', '{braces}', '"quoted"', 'back\\slash', 'NULL', '', 'emoji 🎧', "it's"];

function review(storeAppId: number, storeReviewId: string, overrides: Partial<ReviewRow> = {}): ReviewRow {
  return {
    storeAppId,
    storeReviewId,
    country: 'US',
    rating: 4,
    title: 'Good',
    body: 'Works well.',
    author: 'someone',
    version: null,
    reviewedAt: new Date('2026-06-01T10:20:30.456Z'),
    observedOn: new Date('2026-06-01T00:00:00.000Z'),
    sentiment: 0.25,
    topics: [],
    bugReport: false,
    featureRequests: [],
    ...overrides,
  };
}

describe('insertReviews', () => {
  it('stores each new review as given and returns it; a review stored before, or twice in the batch, is stored once', async () => {
    const { accountId } = await makeAccount();
    const app = await makeApp(accountId);
    const [before] = await insertReviews(db, [review(app.storeAppId, 'r-0', { title: 'Kept as it was' })]);
    const inserted = await insertReviews(db, [
      review(app.storeAppId, 'r-0', { title: 'Not stored again' }),
      review(app.storeAppId, 'r-1', {
        topics: AWKWARD,
        featureRequests: ['dark mode', 'x'.repeat(500)],
        version: '2.1',
        bugReport: true,
        rating: 1,
      }),
      review(app.storeAppId, 'r-1', { title: 'A second copy' }),
      review(app.storeAppId, 'r-2', { title: 'Half a pair: \uD83D.', body: 'Other half: \uDE00!', sentiment: -1 }),
    ]);
    expect(inserted.map((row) => [row.rating, row.country, row.reviewedAt.toISOString()]).sort()).toEqual([
      [1, 'US', '2026-06-01T10:20:30.456Z'],
      [4, 'US', '2026-06-01T10:20:30.456Z'],
    ]);
    const stored = await db.review.findMany({
      where: { storeAppId: app.storeAppId },
      orderBy: { storeReviewId: 'asc' },
    });
    expect(stored.map((row) => row.id)).toEqual([
      before!.id,
      ...inserted.sort((a, b) => (a.rating < b.rating ? -1 : 1)).map((row) => row.id),
    ]);
    expect(stored[0]!.title).toBe('Kept as it was');
    expect(stored[1]).toMatchObject({
      topics: AWKWARD,
      featureRequests: ['dark mode', 'x'.repeat(500)],
      version: '2.1',
      bugReport: true,
      rating: 1,
      title: 'Good',
    });
    // UTF-8 cannot carry an unpaired surrogate: stored as U+FFFD, as a text parameter's encoding writes it.
    expect(stored[2]).toMatchObject({
      title: 'Half a pair: \uFFFD.',
      body: 'Other half: \uFFFD!',
      sentiment: -1,
      version: null,
      topics: [],
    });
  });
});

describe('insertRatingSnapshots', () => {
  it('stores a histogram where the store shows one, and SQL NULL where it does not', async () => {
    const { accountId } = await makeAccount();
    const app = await makeApp(accountId);
    await insertRatingSnapshots(db, [
      {
        storeAppId: app.storeAppId,
        country: 'US',
        date: new Date('2026-06-01T00:00:00.000Z'),
        average: 4.5,
        count: 1200,
        histogram: { '1': 10, '2': 20, '3': 70, '4': 300, '5': 800 },
      },
      {
        storeAppId: app.storeAppId,
        country: 'US',
        date: new Date('2026-06-02T00:00:00.000Z'),
        average: 4.25,
        count: 1201,
        histogram: null,
      },
    ]);
    const rows = await db.ratingSnapshot.findMany({ where: { storeAppId: app.storeAppId }, orderBy: { date: 'asc' } });
    expect(rows.map((row) => [row.average, row.count, row.histogram])).toEqual([
      [4.5, 1200, { '1': 10, '2': 20, '3': 70, '4': 300, '5': 800 }],
      [4.25, 1201, null],
    ]);
    // SQL NULL, not JSON's null: what "no histogram" has always been stored as.
    const nulls = await hotQuery<{ none: boolean }>(
      'SELECT histogram IS NULL AS none FROM rating_snapshots WHERE store_app_id = $1 ORDER BY date',
      [app.storeAppId],
    );
    expect(nulls.map((row) => row.none)).toEqual([false, true]);
  });
});
