// One scale of `npm run bench:growth` (./bench-growth.ts), in a process of its own on the database DATABASE_URL names:
//   build <accounts>  makes the accounts' choices (a Zipf mix of shared apps, terms, storefronts and competitors),
//                     a year of ranks for what they track, then runs one day's refresh of every app against a
//                     stand-in of Apple's endpoints, and prints what the store was asked against the distinct facts;
//   read <accounts>   reads 365-day keyword histories of random accounts' keywords, and prints each read's time.
// The worlds are nested: the first 100 accounts of the 1,000 are the 100, and the first of them is the 1.
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db';
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { termKeyOf } from '@/server/services/apps/terms';
import { keywordHistory } from '@/server/services/aso/keywords';
import { refreshAllApps } from '@/server/services/ingest/refresh';
import { AppStoreProvider, type FetchJson } from '@/server/services/ingest/stores/app-store/app-store-provider';
import { StoresProvider } from '@/server/services/ingest/stores/stores-provider';
import { SeededRandom } from '@/server/services/ingest/demo/random';
import { loadAppStoreFixture } from '../test/stores/recorded-app-store';

const [mode, scaleArgument] = process.argv.slice(2);
const scale = Number(scaleArgument);
if ((mode !== 'build' && mode !== 'read') || !Number.isInteger(scale) || scale < 1) {
  console.error('usage: tsx scripts/bench-growth-scale.ts build|read <accounts>');
  process.exit(2);
}

/** The store apps any account may track or follow, the terms it may track, the storefronts besides the US. */
const APP_POOL = 2_000;
const TERM_POOL = 3_000;
const OTHER_COUNTRIES = ['GB', 'DE', 'FR', 'JP', 'BR', 'CA', 'AU', 'ES', 'IT'];
/** Terms tracked in the primary storefront and in each other one, competitors per app. */
const PRIMARY_TERMS = 10;
const OTHER_TERMS = 5;
const COMPETITORS = 2;
const HISTORY_DAYS = 365;
/** The last day of the generated history; the refresh observes the day after. */
const LAST_DAY = startOfUtcDay(new Date(Date.UTC(2026, 9, 31)));
const storeIdOf = (index: number) => String(2_000_000_000 + index);
const termOf = (index: number) => `growth term ${index}`;

/** The demo data's deterministic generator, so that every run and every scale draws the same worlds. */
function seeded(...keys: (string | number)[]): () => number {
  const random = new SeededRandom('bench-growth', ...keys);
  return () => random.next();
}

/** Draws 0 … size−1 with probability ∝ 1/(k+1)^exponent: a few popular items, a long tail. */
function zipf(size: number, exponent: number): (random: () => number) => number {
  const cumulative: number[] = [];
  let total = 0;
  for (let k = 0; k < size; k++) cumulative.push((total += 1 / (k + 1) ** exponent));
  return (random) => {
    const target = random() * total;
    let low = 0;
    let high = size - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (cumulative[middle]! < target) low = middle + 1;
      else high = middle;
    }
    return low;
  };
}

const drawApp = zipf(APP_POOL, 1.1);
const drawTerm = zipf(TERM_POOL, 1.0);
const drawCountry = zipf(OTHER_COUNTRIES.length, 1.0);

function distinct(count: number, draw: () => number, except: Set<number> = new Set()): number[] {
  const chosen = new Set<number>();
  while (chosen.size < count) {
    const value = draw();
    if (!except.has(value)) chosen.add(value);
  }
  return [...chosen];
}

/** Account `index`'s choices, the same in every world that has it. */
function choicesOf(index: number) {
  const random = seeded(index + 1);
  const app = drawApp(random);
  const others = distinct(Math.floor(random() * 3), () => drawCountry(random)).map(
    (country) => OTHER_COUNTRIES[country]!,
  );
  const keywords = [
    ...distinct(PRIMARY_TERMS, () => drawTerm(random)).map((term) => ({ country: 'US', term: termOf(term) })),
    ...others.flatMap((country) =>
      distinct(OTHER_TERMS, () => drawTerm(random)).map((term) => ({ country, term: termOf(term) })),
    ),
  ];
  const competitors = distinct(COMPETITORS, () => drawApp(random), new Set([app]));
  return { storeId: storeIdOf(app), storefronts: others, keywords, competitors: competitors.map(storeIdOf) };
}

/**
 * Apple's endpoints as the `stores` provider reads them, from the recorded answers' shapes: a search answers 200 apps
 * of the pool in an order of its own per term and storefront; any app's lookup, reviews and chart answer.
 */
function standInAppStore(calls: Record<'search' | 'lookup' | 'reviews' | 'chart', number>): FetchJson {
  const lookup = loadAppStoreFixture('lookup-us-571800810.json') as { results: Record<string, unknown>[] };
  const template = lookup.results[0]!;
  const reviews = loadAppStoreFixture('reviews-us-571800810.json');
  const chart = loadAppStoreFixture('chart-us-6013.json');
  const result = (storeId: string) => ({
    ...template,
    trackId: Number(storeId),
    trackName: `App ${storeId}`,
    bundleId: `com.growth.${storeId}`,
  });
  return async (url) => {
    const parsed = new URL(url);
    if (parsed.pathname === '/search') {
      calls.search++;
      const random = seeded(parsed.searchParams.get('country') ?? '', parsed.searchParams.get('term') ?? '');
      const ids = distinct(200, () => drawApp(random));
      return { resultCount: ids.length, results: ids.map((index) => result(storeIdOf(index))) };
    }
    if (parsed.pathname === '/lookup') {
      calls.lookup++;
      return { resultCount: 1, results: [result(parsed.searchParams.get('id')!)] };
    }
    if (parsed.pathname.includes('customerreviews')) {
      calls.reviews++;
      return reviews;
    }
    calls.chart++;
    return chart;
  };
}

async function build() {
  const first = addDays(LAST_DAY, -(HISTORY_DAYS - 1));
  const accounts = Array.from({ length: scale }, (_, index) => ({
    id: randomUUID(),
    name: `growth ${index}`,
    plan: 'agency' as const,
  }));
  await db.account.createMany({ data: accounts });
  for (const [index, account] of accounts.entries()) {
    const choices = choicesOf(index);
    const app = await db.trackedApp.create({
      data: {
        accountId: account.id,
        store: 'app_store',
        storeId: choices.storeId,
        bundleId: `com.growth.${choices.storeId}`,
        name: `App ${choices.storeId}`,
        developer: 'Growth',
        category: 'Health & Fitness',
        primaryCountry: 'US',
        refreshedThrough: LAST_DAY,
      },
      select: { id: true },
    });
    await db.appStorefront.createMany({ data: choices.storefronts.map((country) => ({ appId: app.id, country })) });
    await db.trackedKeyword.createMany({
      data: choices.keywords.map(({ country, term }) => ({ appId: app.id, country, term, termKey: termKeyOf(term) })),
    });
    await db.competitor.createMany({
      data: choices.competitors.map((storeId) => ({
        appId: app.id,
        store: 'app_store' as const,
        storeId,
        storeUrl: `https://apps.apple.com/us/app/id${storeId}`,
        name: `App ${storeId}`,
      })),
    });
  }
  // A year of ranks of every store app for every term it is tracked for, as an app or as a competitor: once each.
  await db.$executeRawUnsafe(
    'SELECT ensure_store_fact_partitions($1::date, $2::date)',
    isoDay(first),
    isoDay(addDays(LAST_DAY, 1)),
  );
  const started = performance.now();
  await db.$executeRawUnsafe(
    `INSERT INTO app_ranks (store_app_id, country, term_key, term, date, rank)
     SELECT f.store_app_id, f.country, f.term_key, f.term, d::date,
            CASE WHEN abs(hashtext(f.store_app_id || f.term_key || d::date)) % 3 < 2 THEN 1 + abs(hashtext(d::date || f.term_key || f.store_app_id)) % 200 END
     FROM (SELECT DISTINCT ON (store_app_id, country, term_key) store_app_id, country, term_key, term FROM (
             SELECT t.store_app_id, k.country, k.term_key, k.term FROM tracked_keywords k JOIN tracked_apps t ON t.id = k.app_id
             UNION ALL
             SELECT c.store_app_id, k.country, k.term_key, k.term FROM tracked_keywords k JOIN competitors c ON c.app_id = k.app_id) s) f
     CROSS JOIN generate_series($1::date, $2::date, interval '1 day') d`,
    isoDay(first),
    isoDay(LAST_DAY),
  );
  const historySeconds = (performance.now() - started) / 1000;
  await db.$executeRawUnsafe('ANALYZE');

  const [facts] = await db.$queryRawUnsafe<
    {
      keywords: number;
      searches: number;
      observations: number;
      app_storefronts: number;
      store_apps: number;
      rank_rows: number;
    }[]
  >(
    `WITH requested AS (
       -- Each tracked app's storefronts, as the refresh observes them: its primary one, those added, its keywords'.
       SELECT t.store_app_id, c.country FROM tracked_apps t
       CROSS JOIN LATERAL (SELECT t.primary_country AS country UNION SELECT country FROM app_storefronts WHERE app_id = t.id
                           UNION SELECT country FROM tracked_keywords WHERE app_id = t.id) c)
     SELECT (SELECT count(*)::int FROM tracked_keywords) AS keywords,
            (SELECT count(*)::int FROM (SELECT DISTINCT country, term_key FROM tracked_keywords) s) AS searches,
            (SELECT count(*)::int FROM (SELECT DISTINCT store_app_id, country FROM requested) s) AS observations,
            (SELECT count(*)::int FROM requested) AS app_storefronts,
            (SELECT count(DISTINCT store_app_id)::int FROM tracked_apps) AS store_apps,
            (SELECT count(*)::int FROM app_ranks) AS rank_rows`,
  );

  // One day's refresh of every app, on the stand-in.
  const calls = { search: 0, lookup: 0, reviews: 0, chart: 0 };
  const provider = new StoresProvider({ app_store: new AppStoreProvider(standInAppStore(calls)) });
  const day = addDays(LAST_DAY, 1);
  const ranksBefore = await db.appRank.count({ where: { date: day } });
  const refreshStarted = performance.now();
  const run = await refreshAllApps({ provider, through: day });
  const refreshSeconds = (performance.now() - refreshStarted) / 1000;
  if (run.failures.length)
    throw new Error(`the refresh failed for ${run.failures.length} apps: ${String(run.failures[0]!.error)}`);
  const [rankRowsAdded, answersAdded] = await Promise.all([
    db.appRank.count({ where: { date: day } }),
    db.searchAnswer.count({ where: { date: day } }),
  ]);
  return {
    accounts: scale,
    trackedKeywords: facts!.keywords,
    storeApps: facts!.store_apps,
    rankRows: facts!.rank_rows,
    historySeconds,
    refresh: {
      seconds: refreshSeconds,
      calls,
      distinctSearches: facts!.searches,
      distinctObservations: facts!.observations,
      perAccountSearches: facts!.keywords,
      perAccountObservations: facts!.app_storefronts,
      rankRowsAdded: rankRowsAdded - ranksBefore,
      searchAnswersAdded: answersAdded,
    },
  };
}

async function read() {
  const keywords = await db.$queryRawUnsafe<{ account_id: string; app_id: string; keyword_id: string }[]>(
    `SELECT t.account_id, t.id AS app_id, k.id AS keyword_id FROM tracked_keywords k JOIN tracked_apps t ON t.id = k.app_id ORDER BY k.id`,
  );
  const random = seeded(scale);
  const pick = () => keywords[Math.floor(random() * keywords.length)]!;
  const readOnce = async () => {
    const keyword = pick();
    const started = performance.now();
    const history = await keywordHistory(keyword.account_id, {
      appId: keyword.app_id,
      keywordId: keyword.keyword_id,
      days: HISTORY_DAYS,
    });
    const elapsed = performance.now() - started;
    if (history.points.length !== HISTORY_DAYS) throw new Error(`a history of ${history.points.length} days`);
    return elapsed;
  };
  for (let i = 0; i < Number(process.env.GROWTH_WARMUP_READS ?? 100); i++) await readOnce();
  const times: number[] = [];
  for (let i = 0; i < Number(process.env.GROWTH_READS ?? 400); i++) times.push(await readOnce());
  return { accounts: scale, times };
}

const answer = mode === 'build' ? await build() : await read();
console.log(JSON.stringify(answer));
await db.$disconnect();
process.exit(0);
