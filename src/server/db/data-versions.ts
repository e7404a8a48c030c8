// Versions of the data the public API answers from, kept by the database's triggers (migration
// response_cache_versions) and read by the credential's own statement, so that the response cache
// (src/server/operations/response-cache.ts) costs no round trip of its own.

export interface DataVersions {
  /** accounts.data_version: the account's list of apps and their own rows. */
  account: string;
  /** store_data_version: data shared by every account (keyword metrics). */
  store: string;
  /**
   * The app asked about: its own rows' version (tracked_apps.data_version: its keywords, competitors, history), its
   * store app's (the facts observed of it, shared with every account that follows it) and the sum of its competitors'
   * store apps' (their ranks). A sum is enough: the set of competitors changes only with the app's own version (the
   * competitors table's triggers), and under one set a sum of versions that only grow grows at every write, so the
   * three never make an earlier key again. Null when none was asked about or it is not the account's.
   */
  app: string | null;
  /** credit_usage.version of the account's current period: moved by every charge and refund. */
  usage: string;
}

export interface DataVersionColumns {
  account_version: string;
  store_version: string | null;
  app_version: string | null;
  usage_version: string | null;
}

/**
 * The select-list items of the versions, in a statement where `a` is the account's row of `accounts`, `usage` the alias
 * of its current period's row of `credit_usage` (LEFT JOINed: none before the period's first charge) and `app` the
 * placeholder of the app id (a well-formed uuid or NULL).
 */
export function dataVersionColumns(aliases: { app: string; usage: string }): string {
  return `a.data_version::text AS account_version, ${aliases.usage}.version::text AS usage_version,
          (SELECT version::text FROM store_data_version WHERE id = 1) AS store_version,
          (SELECT t.data_version::text || '.' || s.data_version::text || '.' ||
                  COALESCE((SELECT sum(cs.data_version) FROM competitors c JOIN store_apps cs ON cs.id = c.store_app_id WHERE c.app_id = t.id), 0)::text
           FROM tracked_apps t JOIN store_apps s ON s.id = t.store_app_id WHERE t.id = ${aliases.app}::uuid AND t.account_id = a.id) AS app_version`;
}

export function dataVersionsOf(row: DataVersionColumns): DataVersions {
  return {
    account: row.account_version,
    store: row.store_version ?? '0',
    app: row.app_version,
    usage: row.usage_version ?? '0',
  };
}
