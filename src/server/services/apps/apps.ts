// Tracked apps, their storefronts and their tracked keywords, always scoped to the owning account: an app of another
// account is not found, exactly like an unknown one. Adding an app or keywords respects the plan's caps (plans.ts),
// counted under the account's row lock so that concurrent additions cannot pass them, and stores nothing when refused.
import type { Actor } from '@/server/auth/actor';
import type { Prisma } from '@/generated/prisma/client';
import { db, retryOnConflict } from '@/server/db';
import { readAppRow, readAppRows, type AppRow } from '@/server/db/app-statements';
import { lockAccountPlan, lockTrackedApp, lockTrackedAppToRemove } from '@/server/db/row-locks';
import type { Store } from '@/generated/prisma/enums';
import { AppError, limitReached } from '@/server/errors/app-error';
import { planInForce, type PlanCaps } from '@/server/services/accounts/plans';
import { backfillRow } from '@/server/services/ingest/backfill-worker';
import { logError } from '@/server/core/log';
import { recordEvents } from '@/server/services/events/events';
import { parseStoreUrl, STORE_URL_HELP } from '@/server/domain/store-urls';
import { storeNameAtStart } from '@/server/domain/stores';
import type { StoreSearchResult } from '@/server/services/ingest/provider';
import { describeInStore, searchStores } from '@/server/services/ingest/providers';
import { AppRemovedDuringRefresh, refreshApp } from '@/server/services/ingest/refresh';
import { normalizeTerm, termKeyOf } from './terms';

/** An app as the API answers it: its row, and its address in its store. */
export interface AppView extends AppRow {
  storeUrl: string;
}

export interface TrackedKeywordView {
  keywordId: string;
  term: string;
  country: string;
  isFavorite: boolean;
  createdAt: Date;
}

function storeUrlOf(app: { store: Store; storeId: string; primaryCountry: string }): string {
  return app.store === 'app_store'
    ? `https://apps.apple.com/${app.primaryCountry.toLowerCase()}/app/id${app.storeId}`
    : `https://play.google.com/store/apps/details?id=${encodeURIComponent(app.storeId)}`;
}

export async function listApps(accountId: string): Promise<AppView[]> {
  return (await readAppRows(accountId)).map((row) => ({ ...row, storeUrl: storeUrlOf(row) }));
}

export const APP_NOT_FOUND = 'No app with this id is tracked by your account.';

export async function getApp(accountId: string, appId: string): Promise<AppView> {
  const [app] = await readAppRow(accountId, appId);
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  return { ...app, storeUrl: storeUrlOf(app) };
}

/**
 * Adds terms to the app's tracked set for one country (the app's primary country by default).
 * Terms are deduplicated case-insensitively; terms already tracked are reported, not duplicated. Safe under
 * concurrent calls: the unique index (app, country, term key) decides, and the answer is read back.
 */
export async function addKeywords(
  accountId: string,
  input: { appId: string; terms: string[]; country?: string | null },
): Promise<{ appId: string; country: string; added: TrackedKeywordView[]; alreadyTracked: TrackedKeywordView[] }> {
  const app = await db.trackedApp.findFirst({
    where: { id: input.appId, accountId },
    select: { id: true, primaryCountry: true, refreshedThrough: true },
  });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const country = input.country ?? app.primaryCountry;

  const byKey = new Map<string, string>();
  for (const term of input.terms) {
    const key = termKeyOf(term);
    if (!byKey.has(key)) byKey.set(key, normalizeTerm(term));
  }
  const keys = [...byKey.keys()];

  // Inserted rows come back from the insert itself; ON CONFLICT DO NOTHING skips the tracked ones, so
  // a term that a concurrent call added first is reported as already tracked, never as added twice. The keywords and
  // their events are stored together or not at all.
  const storefrontIsNew = (await db.appStorefront.count({ where: { appId: app.id, country } })) === 0;
  const inserted = await db.$transaction(async (tx) => {
    if (!(await lockTrackedApp(tx, app.id))) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
    const caps = await capsOf(tx, accountId);
    const rows = await tx.trackedKeyword.createManyAndReturn({
      data: keys.map((key) => ({ appId: app.id, country, term: byKey.get(key)!, termKey: key })),
      skipDuplicates: true,
    });
    // Counted after the insert, under the lock: all of them fit, or none is kept.
    if (rows.length && caps.trackedKeywords !== null) {
      const total = await trackedKeywordTotal(tx, accountId);
      if (total > caps.trackedKeywords) {
        const room = Math.max(0, caps.trackedKeywords - (total - rows.length));
        throw limitReached(
          'tracked-keywords',
          caps.trackedKeywords,
          `The ${caps.label} plan tracks at most ${caps.trackedKeywords} keywords; this request adds ${rows.length} and ${room} more fit. Nothing was added.`,
        );
      }
    }
    // Keywords in a storefront new to the app track the app there (a trigger adds it): the storefronts' cap holds too.
    if (rows.length && storefrontIsNew) await checkStorefrontCap(tx, { id: app.id, accountId }, caps);
    await recordEvents(
      rows.map((row) => ({
        accountId,
        appId: app.id,
        type: 'keyword.added',
        data: { appId: app.id, keywordId: row.id, term: row.term, country: row.country },
      })),
      tx,
    );
    return rows;
  });
  const insertedKeys = new Set(inserted.map((row) => row.termKey));
  const remainingKeys = keys.filter((key) => !insertedKeys.has(key));
  const existing = remainingKeys.length
    ? await db.trackedKeyword.findMany({ where: { appId: app.id, country, termKey: { in: remainingKeys } } })
    : [];
  // A new keyword gets its rank and metric history at once, not at the next daily refresh; a storefront new to the app
  // gets all of its history (listing, chart rank, reviews). The keywords are tracked whether or not that works (the
  // store may be unreachable): the daily refresh fills what is missing.
  if (inserted.length && app.refreshedThrough) {
    try {
      await refreshApp(
        app.id,
        storefrontIsNew
          ? { onlyCountries: [country] }
          : { onlyTerms: inserted.map((row) => ({ country: row.country, term: row.term })) },
      );
    } catch (error) {
      if (!(error instanceof AppRemovedDuringRefresh))
        logError('history of new keywords not filled; the next refresh fills it', error, { appId: app.id });
    }
  }
  const rowByKey = new Map([...inserted, ...existing].map((row) => [row.termKey, row]));
  const toKeywordView = (key: string): TrackedKeywordView => {
    const row = rowByKey.get(key)!;
    return {
      keywordId: row.id,
      term: row.term,
      country: row.country,
      isFavorite: row.isFavorite,
      createdAt: row.createdAt,
    };
  };
  return {
    appId: app.id,
    country,
    added: keys.filter((key) => insertedKeys.has(key)).map(toKeywordView),
    alreadyTracked: remainingKeys.map(toKeywordView),
  };
}

/** How many keywords the account tracks, over every app and storefront, and how many its plan allows. */
export interface KeywordRoom {
  plan: string;
  /** null: no cap on this plan. */
  cap: number | null;
  tracked: number;
}

/**
 * The account's room for tracked keywords, as the dashboard shows it before a term is tracked. A reading, not a
 * reservation: addKeywords counts again under the account's lock, and refuses what no longer fits.
 */
export async function keywordRoom(accountId: string): Promise<KeywordRoom> {
  const [account, tracked] = await Promise.all([
    db.account.findUnique({ where: { id: accountId }, select: { plan: true, trialEndsAt: true, trialCredits: true } }),
    trackedKeywordTotal(db, accountId),
  ]);
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  const plan = planInForce(account, new Date());
  return { plan: plan.label, cap: plan.caps.trackedKeywords, tracked };
}

/** The keywords the account tracks, over every app and storefront: what its plan's cap counts. */
async function trackedKeywordTotal(client: Prisma.TransactionClient, accountId: string): Promise<number> {
  const sum = await client.trackedApp.aggregate({ where: { accountId }, _sum: { trackedKeywordCount: true } });
  return sum._sum.trackedKeywordCount ?? 0;
}

/** The caps in force for the account, read under its row lock (held until the transaction ends). */
async function capsOf(tx: Prisma.TransactionClient, accountId: string): Promise<PlanCaps & { label: string }> {
  const row = await lockAccountPlan(tx, accountId);
  if (!row) throw new AppError('NOT_FOUND', 'The account does not exist.');
  const plan = planInForce(row, new Date());
  return { ...plan.caps, label: plan.label };
}

/**
 * Refuses a storefront past the tier's cap (PlanCaps.storefrontsPerApp): called under the app's row lock once the
 * storefront's row is in, so that a concurrent addition of another storefront, waiting for the lock, counts this one.
 */
export async function checkStorefrontCap(
  tx: Prisma.TransactionClient,
  app: { id: string; accountId: string },
  known?: PlanCaps & { label: string },
): Promise<void> {
  const caps = known ?? (await capsOf(tx, app.accountId));
  if (caps.storefrontsPerApp === null) return;
  const count = await tx.appStorefront.count({ where: { appId: app.id } });
  if (count > caps.storefrontsPerApp) {
    throw limitReached(
      'storefronts',
      caps.storefrontsPerApp,
      `The ${caps.label} plan tracks each app in at most ${caps.storefrontsPerApp} storefronts, its primary one included, and this app has them all. Remove one on the app's page, or choose a larger plan. Nothing was added.`,
    );
  }
}

/** Refuses a competitor past the tier's cap (PlanCaps.competitorsPerApp): called under the app's row lock, before it is added. */
export async function checkCompetitorCap(tx: Prisma.TransactionClient, app: { id: string; accountId: string }) {
  const caps = await capsOf(tx, app.accountId);
  if (caps.competitorsPerApp === null) return;
  const count = await tx.competitor.count({ where: { appId: app.id } });
  if (count >= caps.competitorsPerApp) {
    throw limitReached(
      'competitors',
      caps.competitorsPerApp,
      `The ${caps.label} plan follows at most ${caps.competitorsPerApp} competitors per app, and this app has them all. Remove one, or choose a larger plan. Nothing was added.`,
    );
  }
}

function storeUrlProblem(detail: string): AppError {
  return new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'body', pointer: '#/storeUrl', detail }] });
}

/**
 * Starts tracking an app from its store page address (POST /apps, the dashboard's Add app, the operator CLI), in
 * `country` (default: the URL's storefront, else US). Idempotent by store and store id: an app the account already
 * tracks is answered as it is, `created: false`. The store is asked first, so an app it does not know is a 404 and
 * nothing is stored. The history backfill then runs in the background (src/server/services/ingest/backfill-worker.ts).
 */
export async function addApp(
  { accountId, mode }: Pick<Actor, 'accountId' | 'mode'>,
  input: { storeUrl: string; country?: string | null },
  { backfill = 'background' }: { backfill?: 'background' | 'caller' } = {},
): Promise<{ app: AppView; created: boolean }> {
  const reference = parseStoreUrl(input.storeUrl);
  if (!reference) throw storeUrlProblem(STORE_URL_HELP);
  const country = (input.country ?? reference.country ?? 'US').toUpperCase();
  const identity = { accountId, store: reference.store, storeId: reference.storeId };
  // A test sandbox's app is described, then observed, by the sandboxes' demo provider.
  const livemode = mode === 'live';
  const existing = await db.trackedApp.findFirst({ where: identity, select: { id: true } });
  if (existing) return { app: await getApp(accountId, existing.id), created: false };

  const details = await describeInStore(reference, country, livemode);
  if (!details) {
    throw new AppError(
      'NOT_FOUND',
      `${storeNameAtStart(reference.store)} has no app ${reference.storeId} that this service can observe in the ${country} storefront.`,
    );
  }
  const created = await db.$transaction(async (tx) => {
    const caps = await capsOf(tx, accountId);
    // Read again under the lock: a concurrent call may have added it.
    const raced = await tx.trackedApp.findFirst({ where: identity, select: { id: true } });
    if (raced) return { id: raced.id, created: false };
    const count = await tx.trackedApp.count({ where: { accountId } });
    if (caps.trackedApps !== null && count >= caps.trackedApps) {
      throw limitReached(
        'tracked-apps',
        caps.trackedApps,
        `The ${caps.label} plan tracks at most ${caps.trackedApps} apps, and this account tracks ${count}. Remove one, or choose a larger plan. Nothing was added.`,
      );
    }
    const app = await tx.trackedApp.create({
      data: {
        ...identity,
        bundleId: reference.store === 'google_play' ? reference.storeId : (reference.slug ?? reference.storeId),
        name: details.name,
        developer: details.developer,
        category: details.category,
        primaryCountry: country,
        iconUrl: details.iconUrl,
      },
      select: { id: true },
    });
    if (backfill === 'background') await tx.appBackfill.create({ data: backfillRow(app.id, livemode) });
    return { id: app.id, created: true };
  });
  return { app: await getApp(accountId, created.id), created: created.created };
}

/**
 * The operator CLI: adds the app to a user's account (a live one: a sandbox has no users) and ingests its history in
 * the foreground, before it answers.
 */
export async function trackApp(accountId: string, input: { storeUrl: string; country?: string }): Promise<AppView> {
  const { app, created } = await addApp({ accountId, mode: 'live' }, input, { backfill: 'caller' });
  if (!created) return app;
  await refreshApp(app.id);
  return getApp(accountId, app.id);
}

/**
 * Stops tracking an app: its keywords, competitors, backfill and storefronts go with it, and no event of it fires any
 * more. What was observed of it stays, the store's facts for whoever follows the store app (docs/api-decisions.md).
 */
export async function removeApp(
  accountId: string,
  appId: string,
): Promise<{ removed: true; appId: string; name: string }> {
  const app = await db.trackedApp.findFirst({ where: { id: appId, accountId }, select: { id: true, name: true } });
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  await retryOnConflict(() =>
    db.$transaction(async (tx) => {
      // Removed meanwhile (another tab, a retried call): 404, as for any app the account does not track.
      if (!(await lockTrackedAppToRemove(tx, app.id))) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
      // Undelivered events about it are dropped with it: its refresh and its events end here.
      await tx.domainEvent.deleteMany({ where: { accountId, appId, dispatchedAt: null } });
      await tx.trackedApp.delete({ where: { id: app.id } });
    }),
  );
  return { removed: true, appId: app.id, name: app.name };
}

/** Stops tracking one keyword of an app. Its ranks stay stored, the store's facts: tracked again, its history is back. */
export async function removeKeyword(
  accountId: string,
  input: { appId: string; keywordId: string },
): Promise<{ removed: true; keywordId: string }> {
  const deleted = await db.trackedKeyword.deleteMany({
    where: { id: input.keywordId, appId: input.appId, app: { accountId } },
  });
  if (!deleted.count) throw new AppError('NOT_FOUND', 'No keyword with this id is tracked for this app.');
  return { removed: true, keywordId: input.keywordId };
}

/** Stops following one competitor of an app. */
export async function removeCompetitor(
  accountId: string,
  input: { appId: string; competitorId: string },
): Promise<{ removed: true; competitorId: string }> {
  const deleted = await db.competitor.deleteMany({
    where: { id: input.competitorId, appId: input.appId, app: { accountId } },
  });
  if (!deleted.count) throw new AppError('NOT_FOUND', 'No competitor with this id is followed for this app.');
  return { removed: true, competitorId: input.competitorId };
}

/** The store's apps matching a name, for the dashboard's Add app (in test mode, the sandboxes' demo provider's). */
export function searchStore(input: { term: string; country: string }, livemode = true): Promise<StoreSearchResult[]> {
  return searchStores(input.term, input.country, 8, livemode);
}
