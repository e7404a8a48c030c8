// Live keyword research: what the data provider reports for a term now, and where the app stands.
//
// The store's answer for a term in a storefront is shared by every caller for RESEARCH_MAX_AGE_SECONDS (default 300;
// 0 asks the store at every call), and concurrent calls for the same term wait for one request to the store. Apple's
// public search endpoint is rate limited per client address (about 20 calls a minute): without this, one customer's
// loop would get every customer's research and refresh jobs refused. An answer says when the store was read
// (`observedAt`), and the response cache drops it when it is no longer live (`researchFreshUntil`). While the store
// fails (an outage, a throttle), research answers the store's last answer for the term, or the refresh's last stored
// metrics of it, each with its age; a term never observed gets 503 store-unavailable, and nothing is charged.
import { LRUCache } from 'lru-cache';
import { readAppRankForTerm } from '@/server/db/keyword-statements';
import { isoDay, startOfUtcDay } from '@/server/core/dates';
import { AppError } from '@/server/errors/app-error';
import { DATA_LIMITS } from './data-limits';
import { APP_NOT_FOUND } from '@/server/services/apps/apps';
import { termKeyOf } from '@/server/services/apps/terms';
import type { ResearchResult } from '@/server/services/ingest/provider';
import { dataProviderFor, storeUnavailable } from '@/server/services/ingest/providers';
import type { Store } from '@/generated/prisma/enums';
import { db } from '@/server/db';
import { logError } from '@/server/core/log';
import { config } from '@/server/core/config';

/** Terms × storefronts kept at once; the least recently asked go first. */
const MAX_RESEARCHED_TERMS = 10_000;

interface Observation {
  result: ResearchResult;
  observedAt: Date;
}

interface ObservationRequest {
  term: string;
  country: string;
  day: Date;
  store: Store;
  /** false: a test sandbox's research, answered by its demo provider. */
  livemode: boolean;
}

/** How long the store's answer for a term is reused, as RESEARCH_MAX_AGE_SECONDS sets it; 0: not reused. */
export function researchMaxAgeSeconds(): number {
  return Math.floor(config().RESEARCH_MAX_AGE_SECONDS);
}

/** How live research is, a sentence of the API's description, from RESEARCH_MAX_AGE_SECONDS. */
export function researchFreshness(): string {
  const seconds = researchMaxAgeSeconds();
  if (seconds === 0) return 'The store is read at every call (`observedAt` says when).';
  const age = seconds % 60 === 0 ? `${seconds / 60} minute${seconds === 60 ? '' : 's'}` : `${seconds} seconds`;
  return `Live means at most ${age} old: the store’s answer for a term and storefront is read once and shared by every caller for that long (\`observedAt\` says when it was read), which keeps the store’s own rate limits from refusing anyone.`;
}

let observations: LRUCache<string, Observation, ObservationRequest> | null | undefined;

async function ask(request: ObservationRequest): Promise<Observation> {
  return {
    result: await dataProviderFor(request.livemode).research(request.term, request.country, request.day, request.store),
    observedAt: new Date(),
  };
}

/** The store's last answer per term and storefront, whatever its day: what research answers while the store fails. */
const lastAnswers = new LRUCache<string, Observation>({ max: MAX_RESEARCHED_TERMS });

async function observeLive(request: ObservationRequest, key: string): Promise<Observation> {
  if (observations === undefined) {
    const maxAge = researchMaxAgeSeconds();
    observations =
      maxAge > 0
        ? new LRUCache<string, Observation, ObservationRequest>({
            max: MAX_RESEARCHED_TERMS,
            ttl: maxAge * 1000,
            // The wall clock, which `observedAt` is read from (and tests can move).
            perf: { now: () => Date.now() },
            // Read at every check (a clock read costs nothing next to a request), not cached for a millisecond.
            ttlResolution: 0,
            // One request to the store per term at a time; a failure is not kept (the next call asks again).
            fetchMethod: (_key, _stale, { context }) => ask(context),
          })
        : null;
  }
  if (!observations) return ask(request);
  // The day is part of the key: the demo provider's numbers are those of a day.
  // Undefined only when the fetch was aborted (the entry evicted meanwhile): then this call asks on its own.
  return (await observations.fetch(`${isoDay(request.day)} ${key}`, { context: request })) ?? ask(request);
}

/** The store's answer; while the store fails, its last one (with the time it was read), else the refresh's last metrics. */
async function observe(request: ObservationRequest): Promise<Observation> {
  const key = [dataProviderFor(request.livemode).name, request.store, request.country, termKeyOf(request.term)].join(
    ' ',
  );
  try {
    const observation = await observeLive(request, key);
    lastAnswers.set(key, observation);
    return observation;
  } catch (failure) {
    return lastAnswers.get(key) ?? lastStoredObservation(request, failure);
  }
}

/**
 * The store cannot be read: the last metrics the refresh stored for the term in that storefront, without top apps
 * (which only a live answer has), dated by the day they describe; none: 503, nothing charged.
 */
async function lastStoredObservation(request: ObservationRequest, failure: unknown): Promise<Observation> {
  const row = await db.keywordMetric.findFirst({
    where: {
      livemode: request.livemode,
      store: request.store,
      country: request.country,
      termKey: termKeyOf(request.term),
    },
    orderBy: { date: 'desc' },
  });
  if (!row) {
    logError('research: the store cannot be read and nothing of the term is stored', failure, {
      country: request.country,
    });
    throw storeUnavailable(request.store, `this term was never observed in the ${request.country} storefront.`);
  }
  return {
    result: {
      term: request.term,
      country: request.country,
      volume: row.volume,
      difficulty: row.difficulty,
      topApps: [],
    },
    observedAt: row.date,
  };
}

export async function researchKeyword(accountId: string, input: { appId: string; term: string; country: string }) {
  const today = startOfUtcDay(new Date());
  // The app's rank on its last day of data (the statement finds that day itself; no row: the app is not the
  // account's), and its store, which the term is researched in.
  const [app] = await readAppRankForTerm({
    accountId,
    appId: input.appId,
    country: input.country,
    termKey: termKeyOf(input.term),
    today: isoDay(today),
  });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const request = { term: input.term, country: input.country, day: today, store: app.store, livemode: app.livemode };
  const { result, observedAt } = await observe(request);
  return {
    // As asked (the store's answer is shared by every spelling of the term).
    term: input.term,
    country: result.country,
    volume: result.volume,
    difficulty: result.difficulty,
    // Not observed: left out (src/server/api/version-shapes.ts answers null to versions before 2026-11-29).
    ...(app.observed && { yourRank: app.rank }),
    yourRankStatus: (app.rank !== null ? 'ranked' : app.observed ? 'unranked' : 'not_observed') as
      | 'ranked'
      | 'unranked'
      | 'not_observed',
    topApps: result.topApps,
    observedAt,
    // The live part says when by `observedAt`; the app's rank is of its last day of data.
    freshness: {
      storefront: result.country,
      dataThrough: app.data_through,
      limits: [DATA_LIMITS.search, DATA_LIMITS.estimates],
    },
  };
}

/** When an answer observed at `observedAt` stops being live: the response cache must not replay it after that. */
export function researchFreshUntil(observedAt: Date): Date {
  return new Date(observedAt.getTime() + researchMaxAgeSeconds() * 1000);
}

/** Tests: forget the store's answers and read RESEARCH_MAX_AGE_SECONDS again. */
export function resetResearchCache(): void {
  observations = undefined;
  lastAnswers.clear();
}
