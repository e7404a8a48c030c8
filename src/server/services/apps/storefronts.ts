// The storefronts an app is tracked in (issue 41): its primary one, those of its tracked keywords, those added on the
// app's page, and any a storefront-scoped read asks for. A read naming a storefront the app has never been observed in
// observes it first, through the provider as the daily refresh does, and the storefront is tracked from then on; what
// the store answers decides the outcome:
// - it answers: the storefront's history is stored (the demo provider's 180 days, the live store's today), and the
//   read answers from it;
// - it says the app is not sold there (404): 404 saying so, and nothing is stored;
// - it fails (down, throttling, too slow): 503 store-unavailable, nothing stored or charged; the next call tries again.
// A tier caps the storefronts per app (PLANS[tier].caps.storefrontsPerApp), counted under the app's row lock.
// Concurrent first reads of one storefront observe it once: in one process they share one observation, and across
// processes a named lock lets one observe while the others wait, then find it observed.
import type { Store } from '@/generated/prisma/enums';
import { db } from '@/server/db';
import { lockTrackedApp, withNamedLock } from '@/server/db/row-locks';
import { storeNameAtStart } from '@/server/domain/stores';
import { AppError } from '@/server/errors/app-error';
import { storeUnavailable } from '@/server/services/ingest/providers';
import { refreshApp } from '@/server/services/ingest/refresh';
import { REQUEST_MAX_WAIT_MS } from '@/server/services/ingest/stores/store-observer';
import { APP_NOT_FOUND, checkStorefrontCap } from './apps';

/** What observing a storefront needs of its app. */
export interface StorefrontApp {
  id: string;
  accountId: string;
  store: Store;
  primaryCountry: string;
}

/**
 * The longest a first read waits for the storefront to be observed, its turn behind a concurrent first read in another
 * process included: each store call is bounded too (STORE_TIMEOUT_SECONDS, its retries), so this catches a hang.
 */
const OBSERVATION_TIMEOUT_MS = 180_000;

/** One observation per storefront at a time in this process; concurrent first reads share it. */
const observing = new Map<string, Promise<void>>();

/**
 * The storefront a read is about (`country`, or the app's primary one), observed first if the app never was there.
 * Throws 404 when the store does not sell the app there, 503 when the store fails, 403 past the tier's cap.
 */
export async function storefrontToRead(app: StorefrontApp, country: string | undefined): Promise<string> {
  if (country === undefined || country === app.primaryCountry) return app.primaryCountry;
  if (await wasObserved(app.id, country)) return country;
  const key = `${app.id}|${country}`;
  let observation = observing.get(key);
  if (!observation) {
    observation = withNamedLock(`storefront ${key}`, () => observeFirstTime(app, country), {
      timeout: OBSERVATION_TIMEOUT_MS,
    }).finally(() => observing.delete(key));
    observing.set(key, observation);
  }
  await observation;
  return country;
}

/**
 * The app's page's Add storefront: tracks the app in one more storefront and observes it before answering, as a
 * first read there does (the same errors, and nothing stored when refused). Idempotent.
 */
export async function addStorefront(accountId: string, input: { appId: string; country: string }): Promise<void> {
  const app = await db.trackedApp.findFirst({
    where: { id: input.appId, accountId },
    select: { id: true, accountId: true, store: true, primaryCountry: true },
  });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  await storefrontToRead(app, input.country);
}

/**
 * Stops tracking the app in a storefront other than its primary one, and its keywords there with it (the refresh
 * observes every storefront of a tracked keyword). Its history stays: tracked again, the storefront shows it.
 */
export async function removeStorefront(
  accountId: string,
  input: { appId: string; country: string },
): Promise<{ removed: true; country: string; keywords: number }> {
  const app = await db.trackedApp.findFirst({
    where: { id: input.appId, accountId },
    select: { id: true, primaryCountry: true },
  });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  if (input.country === app.primaryCountry) {
    const detail = `${input.country} is the app's primary storefront: it is tracked there as long as it is tracked.`;
    throw new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'body', pointer: '#/country', detail }] });
  }
  return db.$transaction(async (tx) => {
    await lockTrackedApp(tx, app.id);
    const removed = await tx.appStorefront.deleteMany({ where: { appId: app.id, country: input.country } });
    if (!removed.count) throw new AppError('NOT_FOUND', `This app is not tracked in the ${input.country} storefront.`);
    const keywords = await tx.trackedKeyword.deleteMany({ where: { appId: app.id, country: input.country } });
    return { removed: true as const, country: input.country, keywords: keywords.count };
  });
}

/** Each storefront of the app with its provider health (src/server/services/ingest/provider-health.ts), alphabetical. */
export async function storefrontHealth(accountId: string, appId: string) {
  const app = await db.trackedApp.findFirst({
    where: { id: appId, accountId },
    select: {
      storefronts: {
        orderBy: { country: 'asc' },
        select: { country: true, lastObservedAt: true, lastError: true, lastErrorAt: true },
      },
    },
  });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  return app.storefronts;
}

/** Whether the provider has answered for the app in this storefront at least once. */
async function wasObserved(appId: string, country: string): Promise<boolean> {
  const row = await db.appStorefront.findUnique({
    where: { appId_country: { appId, country } },
    select: { lastObservedAt: true },
  });
  return row?.lastObservedAt != null;
}

/** Under the storefront's named lock: observes it unless a concurrent first read in another process just did. */
async function observeFirstTime(app: StorefrontApp, country: string): Promise<void> {
  if (await wasObserved(app.id, country)) return;
  const added = await db.$transaction(async (tx) => {
    if (!(await lockTrackedApp(tx, app.id))) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
    const inserted = await tx.appStorefront.createMany({ data: [{ appId: app.id, country }], skipDuplicates: true });
    if (inserted.count) await checkStorefrontCap(tx, app);
    return inserted.count > 0;
  });
  // A storefront tracked before (a keyword's, or one the store failed for until now) stays tracked whatever happens.
  const forget = () =>
    added
      ? db.appStorefront.deleteMany({ where: { appId: app.id, country, lastObservedAt: null } })
      : Promise.resolve();
  let failure: { error: string; notSold: boolean } | undefined;
  try {
    [failure] = (await refreshApp(app.id, { onlyCountries: [country], maxWaitMs: REQUEST_MAX_WAIT_MS })).failures;
  } catch (error) {
    await forget();
    throw error;
  }
  if (!failure) return;
  await forget();
  if (failure.notSold)
    throw new AppError(
      'NOT_FOUND',
      `${storeNameAtStart(app.store)} says this app is not sold in the ${country} storefront.`,
    );
  throw storeUnavailable(
    app.store,
    `this app was never observed in the ${country} storefront, and the store did not answer (${failure.error}); try again in a minute.`,
  );
}
