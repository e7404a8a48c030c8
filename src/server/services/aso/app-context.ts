// The app a request is about, scoped to its account, and the day its data runs through.
import { readAppContextRow, type AppContextRow } from '@/server/db/app-statements';
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { AppError } from '@/server/errors/app-error';
import { APP_NOT_FOUND } from '@/server/services/apps/apps';
import { storefrontToRead } from '@/server/services/apps/storefronts';
import { DATA_LIMITS, type DataLimit } from './data-limits';

export interface AppContext extends Omit<AppContextRow, 'refreshedThrough'> {
  /** Last day with data; today when the app was never refreshed (its series are then empty). */
  asOf: Date;
  refreshed: boolean;
}

/** Every per-app endpoint starts with this lookup (src/server/db/app-statements.ts). */
export async function loadApp(accountId: string, appId: string): Promise<AppContext> {
  const [app] = await readAppContextRow(accountId, appId);
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const { refreshedThrough, ...rest } = app;
  return { ...rest, asOf: refreshedThrough ?? startOfUtcDay(new Date()), refreshed: refreshedThrough !== null };
}

/**
 * The app and the storefront a storefront-scoped read is about: `country`, or the app's primary one. A storefront the
 * app was never observed in is observed first (services/apps/storefronts.ts).
 */
export async function loadAppIn(
  accountId: string,
  input: { appId: string; country?: string },
): Promise<{ app: AppContext; country: string }> {
  const app = await loadApp(accountId, input.appId);
  return { app, country: await storefrontToRead(app, input.country) };
}

/** `days` days ending with the app's last day of data. */
export function windowOf(app: AppContext, days: number): { from: Date; to: Date } {
  return { from: addDays(app.asOf, -(days - 1)), to: app.asOf };
}

/** Each day of the window, for series with one point a day (missing days answered as null). */
export function eachDay(window: { from: Date; to: Date }): Date[] {
  const days: Date[] = [];
  for (let day = window.from; day <= window.to; day = addDays(day, 1)) days.push(day);
  return days;
}

/**
 * What a data answer knows of its own freshness (its `freshness` member): the storefront it reads (null: every one),
 * the last day of data it reads (null: the app has none yet) and what it cannot say.
 */
export function freshnessOf(app: AppContext, storefront: string | null, limits: readonly DataLimit[]) {
  return {
    storefront,
    dataThrough: app.refreshed ? isoDay(app.asOf) : null,
    limits: limits.map((limit) => DATA_LIMITS[limit]),
  };
}
