// The app a request is about, scoped to its account, and the day its data runs through.
import { hotQuery } from '@/server/db';
import { addDays, startOfUtcDay } from '@/server/domain/dates';
import { AppError } from '@/server/errors/app-error';
import { APP_NOT_FOUND } from '@/server/services/apps/apps';

export interface AppContext {
  id: string;
  accountId: string;
  store: 'app_store' | 'google_play';
  storeId: string;
  name: string;
  category: string;
  primaryCountry: string;
  /** Last day with data; today when the app was never refreshed (its series are then empty). */
  asOf: Date;
  refreshed: boolean;
}

/** On the pg pool: every per-app endpoint starts with this lookup (see src/server/db). */
export async function loadApp(accountId: string, appId: string): Promise<AppContext> {
  const [app] = await hotQuery<Omit<AppContext, 'asOf' | 'refreshed'> & { refreshedThrough: Date | null }>(
    `SELECT id::text AS "id", account_id::text AS "accountId", store::text AS "store", store_id AS "storeId", name, category,
            primary_country AS "primaryCountry", refreshed_through AS "refreshedThrough"
     FROM tracked_apps WHERE id = $1::uuid AND account_id = $2::uuid`,
    [appId, accountId],
  );
  if (!app) throw new AppError('NOT_FOUND', APP_NOT_FOUND);
  const { refreshedThrough, ...rest } = app;
  return { ...rest, asOf: refreshedThrough ?? startOfUtcDay(new Date()), refreshed: refreshedThrough !== null };
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
