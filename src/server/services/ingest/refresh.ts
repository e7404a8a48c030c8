// The refresh job: asks the data provider what the store shows for an app on each day still missing, stores the
// snapshots, derives the metadata changelog and rank movements, and records domain events. Idempotent: a day
// ingested twice gives the same rows. The first refresh of an app backfills its history quietly (no events).
// What it observes is the store's facts, stored once per store app whoever follows it (docs/architecture.md, "Store
// facts"): a storefront's day observed already, a term's rank stored already for the app and each competitor, and a
// term whose search answer is stored (whichever app's refresh searched it) are not asked again; each follower's events
// are read from what is stored for the days that are news to it.
import {
  ensureFactPartitions,
  insertAppRanks,
  insertCategoryRanks,
  insertKeywordMetrics,
  insertObservedDays,
  insertMetadataChanges,
  insertMetadataSnapshots,
  insertRatingSnapshots,
  insertReviews,
  insertSearchAnswers,
  readObservedDays,
  readObservedRanks,
  readSearchAnswers,
  readStoredReviewIds,
  type AppRankRow,
  type KeywordMetricRow,
  type MetadataChangeRow,
  type MetadataSnapshotRow,
  type RatingSnapshotRow,
  type SearchAnswerRow,
} from '@/server/db/ingest-statements';
import { logError } from '@/server/core/log';
import { db } from '@/server/db';
import { lockStoreApp, lockTrackedApp } from '@/server/db/row-locks';
import { AppError } from '@/server/errors/app-error';
import type { Prisma } from '@/generated/prisma/client';
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { analyseReview } from '@/server/nlp/text';
import { normalizeTerm, termKeyOf } from '@/server/services/apps/terms';
import { recordEvents, type NewEvent } from '@/server/services/events/events';
import { emptyObservation, type AppObservation, type DataProvider, type Listing, type ReviewRecord } from './provider';
import { isNotSold, providerErrorMessage, recordProviderFailures } from './provider-health';
import { dataProviderFor } from './providers';
import { addPlacesInAnswer } from './stores/store-observer';

/** Days of history a newly tracked app gets from a provider that has history. */
export const BACKFILL_DAYS = 180;
/** A tracked keyword moving by at least this many places (or entering / leaving the ranking) is an event. */
export const RANK_EVENT_THRESHOLD = 5;

export const LISTING_FIELDS = [
  'title',
  'subtitle',
  'description',
  'keywordField',
  'promotionalText',
  'whatsNew',
  'screenshotsCount',
  'hasVideo',
  'price',
  'version',
] as const satisfies readonly (keyof Listing)[];

export interface RefreshOptions {
  /** Last day to ingest (UTC); default today. */
  through?: Date;
  /** Re-ingest at least this many days up to `through`, even if already ingested. */
  days?: number;
  /** Only these terms (a keyword just added): their ranks and metrics over the app's ingested range. */
  onlyTerms?: { country: string; term: string }[];
  /**
   * Only these storefronts (just added to the app): everything observed there (listings, chart ranks, reviews, the
   * ranks of the terms tracked there) over the app's ingested range. The app's rating is the store's, not a storefront's.
   */
  onlyCountries?: string[];
  /**
   * Only these competitors (just added): their ranks for every tracked term over the app's ingested range. From the
   * live store (no history), only its places in the search answers stored on the app's last day: no call is made, since
   * searching every tracked term again inside the request that added the competitor would repeat what the daily
   * refresh asks anyway.
   */
  onlyCompetitors?: string[];
  /** Told after each day observed: the background backfill shows its progress (./backfill-worker.ts). */
  onProgress?: (daysDone: number, daysTotal: number) => Promise<void>;
  /** Instead of the app's own (the live data's, or for a test sandbox's app the demo one). */
  provider?: DataProvider;
  /** A customer's request waits on this refresh: the longest wait for each store call's turn (ObservationRequest.maxWaitMs). */
  maxWaitMs?: number;
}

export interface RefreshSummary {
  appId: string;
  days: string[];
  keywordRanks: number;
  reviews: number;
  metadataChanges: number;
  events: number;
  /**
   * Storefronts the data provider failed (their data stays as it was), with the provider's message; `notSold`: the
   * store answered that it does not sell the app there (not a failure that passes).
   */
  failures: { country: string; error: string; notSold: boolean }[];
}

/** A refresh's failed storefronts for an error message: "US (the store answered 503), DE (…)". */
export function failedStorefronts(failures: RefreshSummary['failures']): string {
  return failures.map((failure) => `${failure.country} (${failure.error})`).join(', ');
}

function listingValue(listing: Listing, field: (typeof LISTING_FIELDS)[number]): string | null {
  const value = listing[field];
  return value === null ? null : String(value);
}

/** The app was removed before or while it was refreshed: nothing was written for it, and there is nothing to fill. */
export class AppRemovedDuringRefresh extends AppError {
  constructor() {
    super('NOT_FOUND', 'The app was removed while it was being refreshed.');
  }
}

export async function refreshApp(appId: string, options: RefreshOptions = {}): Promise<RefreshSummary> {
  const { onlyTerms, onlyCountries, onlyCompetitors } = options;
  const inCountries = onlyCountries && { country: { in: onlyCountries } };
  const [{ account, ...row }, keywords, storefronts, competitors] = await Promise.all([
    db.trackedApp
      .findUnique({ where: { id: appId }, include: { account: { select: { liveAccountId: true } } } })
      .then((found) => found ?? Promise.reject(new AppRemovedDuringRefresh())),
    // A keyword just added needs its own history only, not the app's other keywords (up to thousands).
    onlyTerms
      ? []
      : db.trackedKeyword.findMany({ where: { appId, ...inCountries }, select: { term: true, country: true } }),
    // Only a full refresh observes every storefront of the app.
    onlyTerms || onlyCountries || onlyCompetitors
      ? []
      : db.appStorefront.findMany({ where: { appId }, select: { country: true } }),
    db.competitor.findMany({
      where: { appId, ...(onlyCompetitors && { id: { in: onlyCompetitors } }) },
      select: { id: true, store: true, storeId: true, storeAppId: true },
    }),
  ]);
  const app = { ...row, keywords };
  const livemode = account.liveAccountId === null;
  const provider = options.provider ?? dataProviderFor(livemode);
  const today = startOfUtcDay(options.through ?? new Date());
  // A first ingestion, or a storefront's, is history, not news.
  const quiet = app.refreshedThrough === null || onlyCountries !== undefined;
  // Only days after those ingested before are news (a day asked again is stored as it was).
  const isNewDay = (day: Date) => app.refreshedThrough === null || day > app.refreshedThrough;
  const days = daysToIngest(app.refreshedThrough, today, provider, options);
  const summary: RefreshSummary = {
    appId,
    days: days.map(isoDay),
    keywordRanks: 0,
    reviews: 0,
    metadataChanges: 0,
    events: 0,
    failures: [],
  };
  if (!days.length) return summary;

  const trackedTerms = onlyTerms ?? app.keywords;
  const requested = onlyCountries ?? [
    ...new Set([
      app.primaryCountry,
      ...storefronts.map((storefront) => storefront.country),
      ...trackedTerms.map((keyword) => keyword.country),
    ]),
  ];
  const scope = onlyTerms || onlyCompetitors ? 'keywords' : 'full';
  const competitorReferences = competitors.map(({ store, storeId }) => ({ store, storeId }));
  // Observed storefront by storefront: one the store fails (an outage, a throttle, a timeout) keeps its data as it
  // was, and the others are stored. A storefront failing on any day is left out of every day.
  const failed = new Map<string, string>();
  const notSold = new Set<string>();
  // The ranks stored already, of the app and of each competitor its store's search lists (a competitor just added: of
  // it alone), need no search: the store's answer was the same for whichever account asked it first.
  const wantedTerms = trackedTerms.map((entry) => ({ country: entry.country, termKey: termKeyOf(entry.term) }));
  const rankedAppIds = onlyCompetitors ? [] : [app.storeAppId];
  for (const competitor of competitors)
    if (competitor.store === app.store && !rankedAppIds.includes(competitor.storeAppId))
      rankedAppIds.push(competitor.storeAppId);
  const observed = await readObservedRanks(db, {
    storeAppIds: rankedAppIds,
    terms: wantedTerms,
    first: days[0]!,
    last: days.at(-1)!,
  });
  // The store's search answers stored already, by any account's refresh of any app: every rank still missing for a term
  // answered is its place in the list, without a search.
  const answers = await readSearchAnswers(db, {
    livemode,
    store: app.store,
    terms: wantedTerms,
    first: days[0]!,
    last: days.at(-1)!,
  });
  // A competitor just added from the live store: only what is stored is read (see RefreshOptions.onlyCompetitors).
  const answersOnly = onlyCompetitors !== undefined && !provider.hasHistory;
  // The storefronts' days whose full observation is stored, by whichever follower: only their missing ranks are asked.
  const stored =
    scope === 'full'
      ? await readObservedDays(db, {
          storeAppId: app.storeAppId,
          countries: requested,
          first: days[0]!,
          last: days.at(-1)!,
        })
      : new Map<string, Date>();
  const observations: { day: Date; observation: AppObservation }[] = [];
  const ratings: RatingSnapshotRow[] = [];
  const observedWhole: { country: string; date: Date }[] = [];
  for (const day of days) {
    const observation = emptyObservation();
    for (const country of requested.filter((entry) => !failed.has(entry))) {
      try {
        const terms: { country: string; term: string }[] = [];
        for (const entry of trackedTerms) {
          if (entry.country !== country) continue;
          const key = `${country}|${termKeyOf(entry.term)}|${isoDay(day)}`;
          if (observed.has(key)) continue;
          const answer = answers.get(key);
          if (answer) addPlacesInAnswer(app.store, app.storeId, competitorReferences, entry, answer, observation);
          else terms.push(entry);
        }
        const dayScope = stored.has(`${country}|${isoDay(day)}`) ? 'keywords' : scope;
        // Nothing of a storefront's day left to observe: its whole observation and the ranks of these terms are stored.
        if (answersOnly || (dayScope === 'keywords' && !terms.length)) continue;
        const part = await provider.observe(app, {
          day,
          countries: [country],
          trackedTerms: terms,
          competitors: competitorReferences,
          scope: dayScope,
          maxWaitMs: options.maxWaitMs,
        });
        mergeObservation(observation, part);
        // The store's rating as each storefront shows it: an app reads it in its primary storefront.
        if (part.rating) ratings.push({ storeAppId: app.storeAppId, country, date: day, ...part.rating });
        if (dayScope === 'full') observedWhole.push({ country, date: day });
      } catch (error) {
        failed.set(country, providerErrorMessage(error));
        if (isNotSold(error)) notSold.add(country);
        logError('the data provider failed for a storefront: its data there stays as it was', error, {
          appId,
          country,
        });
      }
    }
    observations.push({ day, observation });
    await options.onProgress?.(observations.length, days.length);
  }
  const countries = requested.filter((country) => !failed.has(country));
  // When the provider last answered for each storefront: now, or the stored observation of a day it was not asked about.
  const observedAtOf = new Map<string, Date>();
  for (const [key, at] of stored) {
    const country = key.slice(0, 2);
    if (!observedAtOf.has(country) || observedAtOf.get(country)! < at) observedAtOf.set(country, at);
  }
  summary.failures = [...failed].map(([country, error]) => ({ country, error, notSold: notSold.has(country) }));
  const observedAt = new Date();
  if (failed.size) await recordProviderFailures(appId, failed, observedAt);
  if (!countries.length) return summary;
  for (const entry of observations) entry.observation = withoutCountries(entry.observation, failed);
  const primaryObserved = countries.includes(app.primaryCountry);
  for (const { country } of observedWhole) observedAtOf.set(country, observedAt);

  const first = days[0]!;
  const last = days.at(-1)!;
  const events: NewEvent[] = [];

  // Ranks, of the app and of its competitors (a competitor just added: the app's are stored already), keyword metrics,
  // and the search answers they were read from.
  const rankRows: AppRankRow[] = [];
  const metricRows: KeywordMetricRow[] = [];
  const answerRows: SearchAnswerRow[] = [];
  const include = onlyTerms ? new Set(onlyTerms.map((entry) => `${entry.country}|${termKeyOf(entry.term)}`)) : null;
  const storeAppIdOf = new Map(
    competitors.map((competitor) => [`${competitor.store}|${competitor.storeId}`, competitor.storeAppId]),
  );
  for (const { day, observation } of observations) {
    for (const entry of observation.searchAnswers)
      answerRows.push({
        store: app.store,
        country: entry.country,
        termKey: termKeyOf(entry.term),
        date: day,
        storeIds: entry.storeIds,
      });
    for (const entry of observation.competitorRanks) {
      const termKey = termKeyOf(entry.term);
      const storeAppId = storeAppIdOf.get(`${entry.store}|${entry.storeId}`);
      if (!storeAppId || (include && !include.has(`${entry.country}|${termKey}`))) continue;
      rankRows.push({
        storeAppId,
        country: entry.country,
        termKey,
        term: normalizeTerm(entry.term),
        date: day,
        rank: entry.rank,
        discovered: false,
      });
    }
    if (onlyCompetitors) continue;
    for (const entry of observation.keywordRanks) {
      const termKey = termKeyOf(entry.term);
      if (include && !include.has(`${entry.country}|${termKey}`)) continue;
      rankRows.push({
        storeAppId: app.storeAppId,
        country: entry.country,
        termKey,
        term: normalizeTerm(entry.term),
        date: day,
        rank: entry.rank,
        discovered: entry.discovered === true,
      });
    }
    for (const entry of observation.keywordMetrics) {
      const termKey = termKeyOf(entry.term);
      if (include && !include.has(`${entry.country}|${termKey}`)) continue;
      metricRows.push({
        store: app.store,
        country: entry.country,
        termKey,
        date: day,
        volume: entry.volume,
        difficulty: entry.difficulty,
      });
    }
  }
  summary.keywordRanks = rankRows.filter((row) => row.storeAppId === app.storeAppId).length;

  // The store's facts describe the store, not the account's app: the first observation of a day stands. Written before
  // and outside the app's transaction, so that the versions their triggers bump (the store's, the store apps') are
  // locked for one statement, not for a whole backfill of this app while other apps' refreshes wait; and a refresh that
  // fails after them keeps what it observed, which the next one then need not ask again.
  await insertKeywordMetrics(db, metricRows, livemode);
  if (rankRows.length || answerRows.length) {
    await ensureFactPartitions(db, first, last);
    await insertSearchAnswers(db, answerRows, livemode, observedAt);
    await insertAppRanks(db, rankRows);
  }
  if (!onlyTerms && !onlyCompetitors) {
    await insertRatingSnapshots(
      db,
      ratings.filter((rating) => countries.includes(rating.country)),
    );
    await insertCategoryRanks(
      db,
      observations.flatMap(({ day, observation }) =>
        observation.categoryRanks.map((entry) => ({ storeAppId: app.storeAppId, date: day, ...entry })),
      ),
    );
    summary.metadataChanges = await storeListings(app.storeAppId, countries, observations);
    summary.reviews = await storeReviews(app.storeAppId, observations);
    // Recorded once its facts are: a refresh that failed before this point is observed again by the next.
    await insertObservedDays(
      db,
      app.storeAppId,
      observedWhole.filter((entry) => countries.includes(entry.country)),
      observedAt,
    );
  }

  await db.$transaction(
    async (tx) => {
      // The app's row first, as every writer of the app takes it (src/server/db/row-locks.ts): refreshes of one app
      // write one after the other, and one of an app removed meanwhile writes nothing.
      if (!(await lockTrackedApp(tx, appId))) throw new AppRemovedDuringRefresh();
      if (onlyTerms || onlyCompetitors) return;

      // The listing changes and the reviews first stored on the days that are news to this app, whichever refresh
      // stored them.
      if (!quiet) {
        const newDays = days.filter(isNewDay);
        events.push(
          ...(await listingChanges(tx, app, newDays, countries)),
          ...(await reviewsObserved(tx, app, newDays, countries)),
        );
      }

      // Rank movements of tracked keywords, against the day before each ingested day: from the stored ranks, whichever
      // account's refresh observed them.
      events.push(
        ...(await rankMovements(tx, app, first, last, countries)).filter((event) => isNewDay(event.occurredAt!)),
      );

      for (const country of countries) {
        const at = observedAtOf.get(country);
        if (at) await tx.appStorefront.updateMany({ where: { appId, country }, data: { lastObservedAt: at } });
      }
      if (!onlyCountries) {
        await tx.trackedApp.update({
          where: { id: appId },
          data: {
            refreshedThrough: app.refreshedThrough && app.refreshedThrough > last ? app.refreshedThrough : last,
            ...(primaryObserved &&
              observedAtOf.has(app.primaryCountry) && { lastObservedAt: observedAtOf.get(app.primaryCountry) }),
          },
        });
      }
      if (!quiet) {
        await recordEvents(events, tx);
        summary.events = events.length;
      }
    },
    // A first backfill of a large app writes hundreds of thousands of rows.
    { timeout: 600_000, maxWait: 30_000 },
  );
  return summary;
}

/**
 * Stores a store app's listings of the days observed, per storefront: a snapshot when something changed, and a
 * changelog row per changed field. The chain is rebuilt from the first day observed on, through the snapshots stored
 * after it (each day not observed now had the listing of the last snapshot before it), so that days observed in any
 * order, by any follower's refresh, make the chain one refresh in day order would. Returns the changelog rows added
 * (less those it replaced).
 */
async function storeListings(
  storeAppId: number,
  countries: string[],
  observations: { day: Date; observation: AppObservation }[],
): Promise<number> {
  return db.$transaction(
    async (tx) => {
      await lockStoreApp(tx, storeAppId);
      let added = 0;
      for (const country of countries) {
        const observed = observations.flatMap(({ day, observation }) => {
          const listing = observation.listings.find((entry) => entry.country === country)?.listing;
          return listing ? [{ day, listing }] : [];
        });
        if (!observed.length) continue;
        const from = observed[0]!.day;
        const [previous, later] = await Promise.all([
          tx.metadataSnapshot.findFirst({
            where: { storeAppId, country, capturedAt: { lt: from } },
            orderBy: { capturedAt: 'desc' },
          }),
          tx.metadataSnapshot.findMany({
            where: { storeAppId, country, capturedAt: { gte: from } },
            orderBy: { capturedAt: 'asc' },
          }),
        ]);
        const observedDays = new Set(observed.map((entry) => entry.day.getTime()));
        const kept = later
          .filter((row) => !observedDays.has(row.capturedAt.getTime()))
          .map(({ id: _id, storeAppId: _storeAppId, country: _country, capturedAt, ...listing }) => ({
            day: capturedAt,
            listing,
          }));
        const sequence = [...observed, ...kept].sort((a, b) => a.day.getTime() - b.day.getTime());
        const snapshots: MetadataSnapshotRow[] = [];
        const changes: MetadataChangeRow[] = [];
        let last: Listing | null = previous;
        for (const { day, listing } of sequence) {
          const changed = last
            ? LISTING_FIELDS.filter((field) => listingValue(last!, field) !== listingValue(listing, field))
            : null;
          if (changed && !changed.length) continue;
          snapshots.push({ storeAppId, country, capturedAt: day, ...listing });
          for (const field of changed ?? [])
            changes.push({
              storeAppId,
              country,
              field,
              before: listingValue(last!, field),
              after: listingValue(listing, field),
              changedAt: day,
            });
          last = listing;
        }
        const removed = await tx.metadataChange.deleteMany({
          where: { storeAppId, country, changedAt: { gte: from } },
        });
        await tx.metadataSnapshot.deleteMany({ where: { storeAppId, country, capturedAt: { gte: from } } });
        await insertMetadataSnapshots(tx, snapshots);
        await insertMetadataChanges(tx, changes);
        added += changes.length - removed.count;
      }
      return added;
    },
    { timeout: 600_000, maxWait: 30_000 },
  );
}

/**
 * Stores the reviews observed that the store app does not have yet, each with its sentiment and themes and the day of
 * the observation: a review stored already is neither analysed again nor written. Returns how many were new.
 */
async function storeReviews(
  storeAppId: number,
  observations: { day: Date; observation: AppObservation }[],
): Promise<number> {
  const observed = new Map<string, { day: Date; review: ReviewRecord }>();
  for (const { day, observation } of observations)
    for (const review of observation.reviews)
      if (!observed.has(review.storeReviewId)) observed.set(review.storeReviewId, { day, review });
  const stored = await readStoredReviewIds(db, storeAppId, [...observed.keys()]);
  const fresh = [...observed.values()].filter(({ review }) => !stored.has(review.storeReviewId));
  const inserted = await insertReviews(
    db,
    fresh.map(({ day, review }) => ({
      storeAppId,
      ...review,
      observedOn: day,
      ...analyseReview(review.title, review.body),
    })),
  );
  return inserted.length;
}

/** A review.created event for each review of the app's storefronts first stored on one of `days`. */
async function reviewsObserved(
  tx: Prisma.TransactionClient,
  app: { id: string; accountId: string; storeAppId: number },
  days: Date[],
  countries: string[],
): Promise<NewEvent[]> {
  if (!days.length || !countries.length) return [];
  const reviews = await tx.review.findMany({
    where: { storeAppId: app.storeAppId, country: { in: countries }, observedOn: { in: days } },
    orderBy: [{ observedOn: 'asc' }, { reviewedAt: 'asc' }, { id: 'asc' }],
    select: { id: true, rating: true, country: true, reviewedAt: true },
  });
  return reviews.map((review) => ({
    accountId: app.accountId,
    appId: app.id,
    type: 'review.created',
    occurredAt: review.reviewedAt,
    data: { appId: app.id, reviewId: review.id, rating: review.rating, country: review.country },
  }));
}

/** An app.metadata_changed event per storefront and day among `days` whose listing changed: the fields, and the version then. */
async function listingChanges(
  tx: Prisma.TransactionClient,
  app: { id: string; accountId: string; storeAppId: number },
  days: Date[],
  countries: string[],
): Promise<NewEvent[]> {
  if (!days.length || !countries.length) return [];
  const window = { gte: days[0]!, lte: days.at(-1)! };
  const [changes, snapshots] = await Promise.all([
    tx.metadataChange.findMany({
      where: { storeAppId: app.storeAppId, country: { in: countries }, changedAt: window },
      select: { country: true, field: true, changedAt: true },
    }),
    tx.metadataSnapshot.findMany({
      where: { storeAppId: app.storeAppId, country: { in: countries }, capturedAt: window },
      select: { country: true, capturedAt: true, version: true },
    }),
  ]);
  const wanted = new Set(days.map((day) => day.getTime()));
  const versionOf = new Map(snapshots.map((row) => [`${row.country}|${row.capturedAt.getTime()}`, row.version]));
  const fieldsOf = new Map<string, { country: string; day: Date; fields: Set<string> }>();
  for (const change of changes) {
    if (!wanted.has(change.changedAt.getTime())) continue;
    const key = `${change.country}|${change.changedAt.getTime()}`;
    const entry = fieldsOf.get(key) ?? { country: change.country, day: change.changedAt, fields: new Set<string>() };
    entry.fields.add(change.field);
    fieldsOf.set(key, entry);
  }
  return [...fieldsOf.entries()]
    .sort(
      ([, a], [, b]) =>
        a.day.getTime() - b.day.getTime() || countries.indexOf(a.country) - countries.indexOf(b.country),
    )
    .map(([key, { country, day, fields }]) => ({
      accountId: app.accountId,
      appId: app.id,
      type: 'app.metadata_changed',
      occurredAt: day,
      data: {
        appId: app.id,
        country,
        fields: LISTING_FIELDS.filter((field) => fields.has(field)),
        version: versionOf.get(key)!,
      },
    }));
}

/** Adds one storefront's observation to the day's (its rating is stored per storefront, apart). */
function mergeObservation(into: AppObservation, part: AppObservation): void {
  into.categoryRanks.push(...part.categoryRanks);
  into.keywordRanks.push(...part.keywordRanks);
  into.keywordMetrics.push(...part.keywordMetrics);
  into.competitorRanks.push(...part.competitorRanks);
  into.searchAnswers.push(...part.searchAnswers);
  into.listings.push(...part.listings);
  into.reviews.push(...part.reviews);
}

/** A day's observation without the storefronts that failed on another day: a storefront's days are stored together or not at all. */
function withoutCountries(observation: AppObservation, failed: Map<string, string>): AppObservation {
  if (!failed.size) return observation;
  const kept = <T extends { country: string }>(entries: T[]) => entries.filter((entry) => !failed.has(entry.country));
  return {
    rating: observation.rating,
    categoryRanks: kept(observation.categoryRanks),
    keywordRanks: kept(observation.keywordRanks),
    keywordMetrics: kept(observation.keywordMetrics),
    competitorRanks: kept(observation.competitorRanks),
    searchAnswers: kept(observation.searchAnswers),
    listings: kept(observation.listings),
    reviews: kept(observation.reviews),
  };
}

function daysToIngest(
  refreshedThrough: Date | null,
  today: Date,
  provider: DataProvider,
  options: RefreshOptions,
): Date[] {
  if (!provider.hasHistory) return [options.onlyCompetitors ? (refreshedThrough ?? today) : today];
  let from: Date;
  if (options.onlyTerms || options.onlyCountries || options.onlyCompetitors) {
    from = addDays(refreshedThrough ?? today, -(BACKFILL_DAYS - 1));
    today = refreshedThrough ?? today;
  } else if (refreshedThrough === null) {
    from = addDays(today, -(BACKFILL_DAYS - 1));
  } else {
    from = addDays(refreshedThrough, 1);
  }
  if (options.days) {
    const requested = addDays(today, -(options.days - 1));
    if (requested < from) from = requested;
  }
  const days: Date[] = [];
  for (let day = from; day <= today; day = addDays(day, 1)) days.push(day);
  return days;
}

async function rankMovements(
  tx: Prisma.TransactionClient,
  app: { id: string; accountId: string; storeAppId: number; keywords: { term: string; country: string }[] },
  first: Date,
  last: Date,
  countries: string[],
): Promise<NewEvent[]> {
  const tracked = app.keywords.filter((keyword) => countries.includes(keyword.country));
  if (!tracked.length) return [];
  const termOf = new Map(tracked.map((keyword) => [`${keyword.country}|${termKeyOf(keyword.term)}`, keyword.term]));
  const rows = await tx.appRank.findMany({
    where: {
      storeAppId: app.storeAppId,
      date: { gte: addDays(first, -1), lte: last },
      OR: tracked.map((keyword) => ({ country: keyword.country, termKey: termKeyOf(keyword.term) })),
    },
    select: { country: true, termKey: true, date: true, rank: true },
    orderBy: { date: 'asc' },
  });
  const lastRank = new Map<string, number | null>();
  const events: NewEvent[] = [];
  for (const row of rows) {
    const key = `${row.country}|${row.termKey}`;
    const previous = lastRank.has(key) ? lastRank.get(key)! : undefined;
    lastRank.set(key, row.rank ?? null);
    if (previous === undefined || row.date < first) continue;
    const current = row.rank ?? null;
    const moved =
      (previous === null) !== (current === null) ||
      (previous !== null && current !== null && Math.abs(previous - current) >= RANK_EVENT_THRESHOLD);
    if (moved) {
      events.push({
        accountId: app.accountId,
        appId: app.id,
        type: 'keyword.rank_changed',
        occurredAt: row.date,
        data: {
          appId: app.id,
          term: termOf.get(key)!,
          country: row.country,
          date: isoDay(row.date),
          previousRank: previous,
          rank: current,
        },
      });
    }
  }
  return events;
}

/** What a refresh of every app did: each app's summary, and the apps whose refresh failed (their data stays as it was). */
export interface RefreshRun {
  summaries: RefreshSummary[];
  failures: { appId: string; error: unknown }[];
}

/**
 * Refreshes every tracked app through `through`; used by the daily job, the launcher's catch-up and `npm run admin --
 * refresh`. An app whose first backfill is still to come is left to the backfill worker (./backfill-worker.ts). One
 * app's failure (the store down or throttling, the app removed meanwhile) leaves that app's data as it was and the
 * others are refreshed: the caller decides what a failure means (the daily job is retried; the launcher starts).
 */
export async function refreshAllApps(
  options: Omit<RefreshOptions, 'onlyTerms' | 'onlyCountries' | 'onlyCompetitors'> = {},
): Promise<RefreshRun> {
  const apps = await db.trackedApp.findMany({
    where: { OR: [{ backfill: null }, { backfill: { finishedAt: { not: null } } }] },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  const run: RefreshRun = { summaries: [], failures: [] };
  for (const app of apps) {
    try {
      const summary = await refreshApp(app.id, options);
      run.summaries.push(summary);
      if (summary.failures.length)
        run.failures.push({
          appId: app.id,
          error: new Error(summary.failures.map((failure) => `${failure.country}: ${failure.error}`).join('; ')),
        });
    } catch (error) {
      if (error instanceof AppRemovedDuringRefresh) continue;
      run.failures.push({ appId: app.id, error });
      logError('the refresh of an app failed: its data stays as it was', error, { appId: app.id });
    }
  }
  return run;
}
