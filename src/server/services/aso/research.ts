// Live keyword research: what the data provider reports for a term now, and where the app stands.
//
// The store's answer for a term in a storefront is shared by every caller for RESEARCH_MAX_AGE_SECONDS (default 300;
// 0 asks the store at every call), and concurrent calls for the same term wait for one request to the store. Apple's
// public search endpoint is rate limited per client address (about 20 calls a minute): without this, one customer's
// loop would get every customer's research and refresh jobs refused. An answer says when the store was read
// (`observedAt`), and the response cache drops it when it is no longer live (`researchFreshUntil`).
import { LRUCache } from 'lru-cache';
import { readAppRankForTerm } from '@/server/db/keyword-statements';
import { isoDay, startOfUtcDay } from '@/server/core/dates';
import { AppError } from '@/server/errors/app-error';
import { APP_NOT_FOUND } from '@/server/services/apps/apps';
import { termKeyOf } from '@/server/services/apps/terms';
import type { ResearchResult } from '@/server/services/ingest/provider';
import { dataProvider } from '@/server/services/ingest/providers';
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
  return { result: await dataProvider().research(request.term, request.country, request.day), observedAt: new Date() };
}

async function observe(request: ObservationRequest): Promise<Observation> {
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
  const key = [dataProvider().name, isoDay(request.day), request.country, termKeyOf(request.term)].join(' ');
  // Undefined only when the fetch was aborted (the entry evicted meanwhile): then this call asks on its own.
  return (await observations.fetch(key, { context: request })) ?? ask(request);
}

export async function researchKeyword(accountId: string, input: { appId: string; term: string; country: string }) {
  const today = startOfUtcDay(new Date());
  // The store's answer, and the app's rank on its last day of data (the statement finds that day itself; no row: the
  // app is not the account's).
  const [observation, apps] = await Promise.all([
    observe({ term: input.term, country: input.country, day: today }),
    readAppRankForTerm({ accountId, appId: input.appId, country: input.country, termKey: termKeyOf(input.term), today: isoDay(today) }),
  ]);
  const app = apps[0];
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const { result, observedAt } = observation;
  return {
    // As asked (the store's answer is shared by every spelling of the term).
    term: input.term,
    country: result.country,
    volume: result.volume,
    difficulty: result.difficulty,
    yourRank: app.rank,
    topApps: result.topApps,
    observedAt,
  };
}

/** When an answer observed at `observedAt` stops being live: the response cache must not replay it after that. */
export function researchFreshUntil(observedAt: Date): Date {
  return new Date(observedAt.getTime() + researchMaxAgeSeconds() * 1000);
}

/** Tests: forget the store's answers and read RESEARCH_MAX_AGE_SECONDS again. */
export function resetResearchCache(): void {
  observations = undefined;
}
