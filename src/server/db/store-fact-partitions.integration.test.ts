// The store facts' largest time series, app_ranks and search_answers, are partitioned by month: a read touches only
// the months it asks for, and retention drops whole months (src/server/services/ingest/retention.ts).
import { describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { dropExpiredStoreFacts, oldestMonthKept } from '@/server/services/ingest/retention';
import { ensureFactPartitions, insertAppRanks, insertSearchAnswers } from './ingest-statements';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

async function partitionsOf(table: 'app_ranks' | 'search_answers'): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ name: string }[]>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`,
    table,
  );
  return rows.map((row) => row.name);
}

describe('the store facts’ monthly partitions', () => {
  it('are made for the months written, once, for both tables', async () => {
    await ensureFactPartitions(db, day('2017-11-20'), day('2018-01-03'));
    await Promise.all([
      ensureFactPartitions(db, day('2017-12-01'), day('2017-12-31')),
      ensureFactPartitions(db, day('2017-12-15'), day('2018-01-01')),
    ]);
    for (const table of ['app_ranks', 'search_answers'] as const) {
      expect(
        (await partitionsOf(table)).filter((name) => name.includes('_2017_') || name.includes('_2018_01')),
      ).toEqual([`${table}_2017_11`, `${table}_2017_12`, `${table}_2018_01`]);
    }
  });

  it('a read of some days touches only the months of those days', async () => {
    await ensureFactPartitions(db, day('2016-01-01'), day('2016-04-30'));
    const plan = await db.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN SELECT store_app_id, date, rank FROM app_ranks
       WHERE store_app_id = ANY('{1,2}'::int[]) AND country = 'US' AND term_key = 'sleep' AND date BETWEEN '2016-02-10' AND '2016-03-09'`,
    );
    const scanned = [
      ...new Set(
        plan
          .map((row) => row['QUERY PLAN'])
          .join('\n')
          .match(/app_ranks_\d{4}_\d{2}/g),
      ),
    ].sort();
    expect(scanned).toEqual(['app_ranks_2016_02', 'app_ranks_2016_03']);
  });

  it('retention drops whole months past it, ranks kept longer than search answers', async () => {
    // Months far before any other test's days: 2014-01 to 2015-06.
    await ensureFactPartitions(db, day('2014-01-01'), day('2015-06-30'));
    const storeApp = await db.storeApp.create({
      data: { livemode: true, store: 'app_store', storeId: `retention-${Date.now()}` },
    });
    for (const date of [day('2014-01-15'), day('2014-12-15'), day('2015-06-15')]) {
      await insertAppRanks(db, [
        { storeAppId: storeApp.id, country: 'US', termKey: 'sleep', term: 'sleep', date, rank: 3, discovered: false },
      ]);
      await insertSearchAnswers(
        db,
        [
          {
            store: 'app_store',
            country: 'US',
            termKey: `retention ${storeApp.id}`,
            date,
            storeIds: ['1', String(storeApp.id)],
          },
        ],
        true,
        new Date(),
      );
    }
    // On 2015-06-20, with the defaults (25 months of ranks, 13 of answers): ranks from 2013-06 on, answers from 2014-06 on.
    expect(oldestMonthKept(day('2015-06-20'), 25)).toEqual(day('2013-06-01'));
    expect(oldestMonthKept(day('2015-06-20'), 13)).toEqual(day('2014-06-01'));
    const dropped = await dropExpiredStoreFacts(day('2015-06-20'));
    expect(dropped.filter((name) => name.startsWith('app_ranks_201'))).not.toContain('app_ranks_2014_01');
    expect(dropped.filter((name) => /^search_answers_2014_0[1-5]$/.test(name))).toEqual([
      'search_answers_2014_01',
      'search_answers_2014_02',
      'search_answers_2014_03',
      'search_answers_2014_04',
      'search_answers_2014_05',
    ]);
    expect(await db.appRank.count({ where: { storeAppId: storeApp.id } })).toBe(3);
    const answers = await db.searchAnswer.findMany({
      where: { termKey: `retention ${storeApp.id}` },
      select: { date: true },
    });
    expect(answers.map((answer) => answer.date)).toEqual([day('2014-12-15'), day('2015-06-15')]);
    // A month dropped is made again when a refresh writes into it.
    await ensureFactPartitions(db, day('2014-02-01'), day('2014-02-01'));
    expect(await partitionsOf('search_answers')).toContain('search_answers_2014_02');
  });
});
