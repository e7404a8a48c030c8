// Records the store answers the provider tests replay: `npm run fixtures:record`, on a machine that reaches the App
// Store and Google Play (README, "Recorded store answers"). It asks what test/fixtures/stores-plan.json names,
// through the providers themselves, so that the files are exactly the calls they make: Google Play into
// test/fixtures/google-play/<today>/ (a day beside the earlier ones; the tests replay the last two, and expect the
// second to differ from the first as a new release would), the App Store into test/fixtures/app-store/ (replaced).
// Calls are paced in this process (20 a minute per store) and retried as in production. Everything is recorded into
// a staging folder first and put in place only once every call has been recorded: a failed recording changes nothing.
import type { Store } from '../src/generated/prisma/enums';
import { isoDay } from '../src/server/core/dates';
import type { ObservationRequest, ProviderApp } from '../src/server/services/ingest/provider';
import { AppStoreProvider, fetchJsonThrough } from '../src/server/services/ingest/stores/app-store/app-store-provider';
import { scraperClient } from '../src/server/services/ingest/stores/google-play/google-play-client';
import { GooglePlayProvider } from '../src/server/services/ingest/stores/google-play/google-play-provider';
import { createStoreGate, type StoreGate } from '../src/server/services/ingest/stores/store-calls';
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { APP_STORE_FIXTURES, APP_STORE_PLAN, recordingFetch } from '../test/stores/recorded-app-store';
import { GOOGLE_PLAY_FIXTURES, GOOGLE_PLAY_PLAN, recordingPlayClient } from '../test/stores/recorded-google-play';

const staging = mkdtempSync(path.join(path.dirname(GOOGLE_PLAY_FIXTURES), '.recording-'));

const CALLS_PER_MINUTE = 20;
const TIMEOUT_MS = 20_000;

/** One call every 60/CALLS_PER_MINUTE seconds, in this process: the recording runs alone. */
function pacedGate(store: Store): StoreGate {
  let next = 0;
  return createStoreGate(
    store,
    {
      callsPerMinute: CALLS_PER_MINUTE,
      concurrency: 1,
      timeoutMs: TIMEOUT_MS,
      retries: 3,
      minBackoffMs: 5_000,
      maxBackoffMs: 60_000,
    },
    async () => {
      const wait = next - Date.now();
      if (wait > 0) return Math.ceil(wait / 1000);
      next = Date.now() + 60_000 / CALLS_PER_MINUTE;
      return 0;
    },
  );
}

/** The plan's app, observed in its storefront for its terms, with its competitor: what the provider tests replay. */
function plannedObservation(
  store: Store,
  plan: { appId: string; competitorId: string; country: string; terms: string[] },
  now: Date,
): [ProviderApp, ObservationRequest] {
  return [
    {
      store,
      storeId: plan.appId,
      bundleId: plan.appId,
      name: plan.appId,
      developer: '',
      category: '',
      primaryCountry: plan.country,
    },
    {
      day: now,
      countries: [plan.country],
      trackedTerms: plan.terms.map((term) => ({ country: plan.country, term })),
      competitors: [{ store, storeId: plan.competitorId }],
      scope: 'full',
    },
  ];
}

async function recordGooglePlay(now: Date): Promise<void> {
  const plan = GOOGLE_PLAY_PLAN;
  const day = isoDay(now);
  const provider = new GooglePlayProvider(
    recordingPlayClient(scraperClient(TIMEOUT_MS), day, path.join(staging, 'google-play')),
    pacedGate('google_play'),
  );
  await provider.searchApps(plan.searchTerm, plan.country, 8);
  await provider.observe(...plannedObservation('google_play', plan, now));
  await provider.research(plan.searchTerm, plan.country, now);
  for (const storeId of [plan.competitorId, plan.missingId])
    await provider.describe({ store: 'google_play', storeId, country: plan.country, slug: null }, plan.country);
}

async function recordAppStore(now: Date): Promise<void> {
  const plan = APP_STORE_PLAN;
  const gate = pacedGate('app_store');
  const provider = new AppStoreProvider(
    recordingFetch(
      fetchJsonThrough(() => gate),
      path.join(staging, 'app-store'),
    ),
  );
  // The shallow search first: the deeper one of the same term then replaces its file.
  await provider.searchApps(plan.searchTerm, plan.country, 8);
  await provider.observe(...plannedObservation('app_store', plan, now));
  for (const storeId of [plan.appId, plan.missingId])
    await provider.describe({ store: 'app_store', storeId, country: plan.country, slug: null }, plan.country);
}

const now = new Date();
try {
  await recordGooglePlay(now);
  await recordAppStore(now);
} catch (error) {
  rmSync(staging, { recursive: true, force: true });
  console.error(`Nothing was recorded: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const day = isoDay(now);
rmSync(path.join(GOOGLE_PLAY_FIXTURES, day), { recursive: true, force: true });
renameSync(path.join(staging, 'google-play', day), path.join(GOOGLE_PLAY_FIXTURES, day));
rmSync(APP_STORE_FIXTURES, { recursive: true, force: true });
renameSync(path.join(staging, 'app-store'), APP_STORE_FIXTURES);
rmSync(staging, { recursive: true, force: true });
console.log(
  `Recorded Google Play into test/fixtures/google-play/${day} and the App Store into test/fixtures/app-store.`,
);
console.log('Run `npm run test:unit` to check the provider tests on the new recordings.');
