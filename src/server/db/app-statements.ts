// The statements about tracked apps on the request path, on the pg pool: GET /apps/{id} is the cheapest metered read,
// and every per-app endpoint starts with the app's lookup.
import type { Store } from '@/generated/prisma/enums';
import { hotQuery } from './index';

/** An app as the API lists it; the keyword count is kept by the database (tracked_keyword_count), not counted per call. */
export interface AppRow {
  id: string;
  store: Store;
  storeId: string;
  bundleId: string;
  name: string;
  developer: string;
  category: string;
  primaryCountry: string;
  iconUrl: string | null;
  createdAt: Date;
  trackedKeywords: number;
  /** Every storefront the app is tracked in, alphabetical. */
  storefronts: string[];
  /** Last day with data; null before the first refresh. */
  refreshedThrough: Date | null;
  /** Whether one of the account's connected store accounts publishes it. */
  owned: boolean;
  /** When the data provider last answered for the app; null before it did. */
  lastObservedAt: Date | null;
  /** The background backfill of an app added by a customer; null for an app added otherwise. */
  /** Its times as PostgreSQL writes them in JSON. */
  backfill: {
    daysTotal: number;
    daysDone: number;
    attempts: number;
    claimedAt: string | null;
    finishedAt: string | null;
    lastError: string | null;
  } | null;
}

const APP_ROW_SQL = `
  SELECT a.id::text AS "id", a.store::text AS "store", a.store_id AS "storeId", a.bundle_id AS "bundleId", a.name, a.developer,
         a.category, a.primary_country AS "primaryCountry", a.icon_url AS "iconUrl", a.created_at AS "createdAt",
         a.tracked_keyword_count AS "trackedKeywords", a.refreshed_through AS "refreshedThrough",
         a.last_observed_at AS "lastObservedAt", a.owned_by_store_account_id IS NOT NULL AS "owned",
         ARRAY(SELECT s.country::text FROM app_storefronts s WHERE s.app_id = a.id ORDER BY s.country) AS "storefronts",
         CASE WHEN b.app_id IS NULL THEN NULL ELSE json_build_object(
           'daysTotal', b.days_total, 'daysDone', b.days_done, 'attempts', b.attempts, 'claimedAt', b.claimed_at,
           'finishedAt', b.finished_at, 'lastError', b.last_error) END AS "backfill"
  FROM tracked_apps a LEFT JOIN app_backfills b ON b.app_id = a.id`;

/** The account's apps, oldest first. */
export function readAppRows(accountId: string): Promise<AppRow[]> {
  return hotQuery<AppRow>(`${APP_ROW_SQL} WHERE a.account_id = $1::uuid ORDER BY a.created_at, a.id`, [accountId]);
}

/** One app of the account; none when it is another account's or unknown. */
export function readAppRow(accountId: string, appId: string): Promise<AppRow[]> {
  return hotQuery<AppRow>(`${APP_ROW_SQL} WHERE a.id = $1::uuid AND a.account_id = $2::uuid`, [appId, accountId]);
}

/** What a per-app endpoint needs of its app, and the last day of data (null: never refreshed). */
export interface AppContextRow {
  id: string;
  accountId: string;
  store: Store;
  storeId: string;
  /** The store app it is: the key of what is observed of it (docs/architecture.md, "Store facts"). */
  storeAppId: number;
  name: string;
  category: string;
  primaryCountry: string;
  refreshedThrough: Date | null;
  /** false: a test sandbox's app, whose keyword metrics are the sandboxes' own. */
  livemode: boolean;
  /** The storefronts it is tracked in: of a store app's facts, the app is shown those of its own storefronts. */
  storefronts: string[];
}

export function readAppContextRow(accountId: string, appId: string) {
  return hotQuery<AppContextRow>(
    `SELECT t.id::text AS "id", t.account_id::text AS "accountId", t.store::text AS "store", t.store_id AS "storeId", t.store_app_id AS "storeAppId",
            t.name, t.category, t.primary_country AS "primaryCountry", t.refreshed_through AS "refreshedThrough", a.live_account_id IS NULL AS livemode,
            ARRAY(SELECT s.country::text FROM app_storefronts s WHERE s.app_id = t.id ORDER BY s.country) AS storefronts
     FROM tracked_apps t JOIN accounts a ON a.id = t.account_id WHERE t.id = $1::uuid AND t.account_id = $2::uuid`,
    [appId, accountId],
  );
}
