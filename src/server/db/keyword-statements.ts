// The statements about keywords on the request path, on the pg pool (lists of up to thousands of rows, where Prisma's
// per-row cost shows). Keyword metrics are looked up per term (LATERAL with OFFSET 0 keeps it a lookup; joined
// plainly, PostgreSQL reads that day's metrics of every term in the country). Ranks are the store app's, shared by
// every account that follows it (app_ranks). An app is shown its tracked terms and the terms the store app was
// discovered ranking for, never a term that is there only because another account tracks it: that is theirs to know.
import type { Store } from '@/generated/prisma/enums';
import { hotQuery } from './index';

/** `day` and `windowStart` as YYYY-MM-DD. */
interface AppDay {
  appId: string;
  /** The app's store: each store's search has its own metrics. */
  store: Store;
  /** false: a test sandbox's app, whose metrics are the sandboxes' generated ones. */
  livemode: boolean;
  country: string;
  day: string;
}

/** The tracked keywords of an app in a storefront, their rank on `day` and at `windowStart`, and `day`'s metrics. */
export function readTrackedKeywordRows({
  appId,
  store,
  livemode,
  country,
  day,
  windowStart,
}: AppDay & { windowStart: string }) {
  return hotQuery<{
    keyword_id: string;
    term: string;
    is_favorite: boolean;
    rank: number | null;
    /** The day was observed for the term: the app's rank row (a rank, or null: not in the results), or the store's answer. */
    observed: boolean;
    then_rank: number | null;
    volume: number | null;
    difficulty: number | null;
  }>(
    `SELECT k.id::text AS keyword_id, k.term, k.is_favorite, r.rank, t.rank AS then_rank, m.volume, m.difficulty,
            (r.store_app_id IS NOT NULL OR EXISTS (
               SELECT 1 FROM search_answers s WHERE s.livemode = $6 AND s.store = $5::"Store" AND s.country = k.country
                 AND s.term_key = k.term_key AND s.date = $1::date)) AS observed
     FROM tracked_keywords k
     JOIN tracked_apps a ON a.id = k.app_id
     LEFT JOIN app_ranks r ON r.store_app_id = a.store_app_id AND r.country = k.country AND r.term_key = k.term_key AND r.date = $1::date
     LEFT JOIN app_ranks t ON t.store_app_id = a.store_app_id AND t.country = k.country AND t.term_key = k.term_key AND t.date = $2::date
     LEFT JOIN LATERAL (
       SELECT volume, difficulty FROM keyword_metrics
       WHERE livemode = $6 AND store = $5::"Store" AND country = k.country AND term_key = k.term_key AND date = $1::date OFFSET 0
     ) m ON true
     WHERE k.app_id = $3::uuid AND k.country = $4
     ORDER BY r.rank ASC NULLS LAST, k.term COLLATE "C" ASC, k.id`,
    [day, windowStart, appId, country, store, livemode],
  );
}

/** Every term the app ranks for on `day`, best rank first, with its metrics and its tracked keyword if any. */
export function readRankedTermRows({ appId, store, livemode, country, day }: AppDay) {
  return hotQuery<{
    term: string;
    rank: number;
    volume: number | null;
    difficulty: number | null;
    keyword_id: string | null;
  }>(
    `SELECT COALESCE(k.term, r.term) AS term, r.rank, m.volume, m.difficulty, k.id::text AS keyword_id
     FROM tracked_apps a
     JOIN app_ranks r ON r.store_app_id = a.store_app_id
     LEFT JOIN LATERAL (
       SELECT volume, difficulty FROM keyword_metrics
       WHERE livemode = $5 AND store = $4::"Store" AND country = r.country AND term_key = r.term_key AND date = r.date OFFSET 0
     ) m ON true
     LEFT JOIN tracked_keywords k ON k.app_id = a.id AND k.country = r.country AND k.term_key = r.term_key
     WHERE a.id = $1::uuid AND r.country = $2 AND r.date = $3::date AND r.rank IS NOT NULL AND (r.discovered OR k.id IS NOT NULL)
     ORDER BY r.rank ASC, r.term_key COLLATE "C" ASC`,
    [appId, country, day, store, livemode],
  );
}

/** The terms the app appears for on `day` that have metrics, ranked or not, with its tracked keyword if any. */
export function readOpportunityRows({ appId, store, livemode, country, day }: AppDay) {
  return hotQuery<{
    term: string;
    term_key: string;
    rank: number | null;
    volume: number;
    difficulty: number;
    keyword_id: string | null;
  }>(
    `SELECT COALESCE(k.term, r.term) AS term, r.term_key, r.rank, m.volume, m.difficulty, k.id::text AS keyword_id
     FROM tracked_apps a
     JOIN app_ranks r ON r.store_app_id = a.store_app_id
     JOIN LATERAL (
       SELECT volume, difficulty FROM keyword_metrics
       WHERE livemode = $5 AND store = $4::"Store" AND country = r.country AND term_key = r.term_key AND date = r.date OFFSET 0
     ) m ON true
     LEFT JOIN tracked_keywords k ON k.app_id = a.id AND k.country = r.country AND k.term_key = r.term_key
     WHERE a.id = $1::uuid AND r.country = $2 AND r.date = $3::date AND (r.discovered OR k.id IS NOT NULL)`,
    [appId, country, day, store, livemode],
  );
}

/**
 * The app's store, its last day of data, and its rank for a term that day (`today` when it was never refreshed): the
 * statement finds that day itself. No row: the app is not the account's.
 */
export function readAppRankForTerm(input: {
  accountId: string;
  appId: string;
  country: string;
  termKey: string;
  today: string;
}) {
  // `observed`: the app's rank row of that day (a rank, or null: not in the results), or the store's answer for the term
  // that day, stored by whichever account's refresh asked it, which the app was then not in.
  return hotQuery<{
    rank: number | null;
    observed: boolean;
    store: Store;
    livemode: boolean;
    data_through: string | null;
  }>(
    `SELECT t.store::text AS store, a.live_account_id IS NULL AS livemode, r.rank,
            to_char(t.refreshed_through, 'YYYY-MM-DD') AS data_through,
            (r.store_app_id IS NOT NULL OR EXISTS (
               SELECT 1 FROM search_answers s
               WHERE s.livemode = (a.live_account_id IS NULL) AND s.store = t.store AND s.country = $3
                 AND s.term_key = $4 AND s.date = COALESCE(t.refreshed_through, $5::date))) AS observed
     FROM tracked_apps t JOIN accounts a ON a.id = t.account_id
     LEFT JOIN app_ranks r ON r.store_app_id = t.store_app_id AND r.country = $3 AND r.term_key = $4
                          AND r.date = COALESCE(t.refreshed_through, $5::date)
     WHERE t.id = $1::uuid AND t.account_id = $2::uuid`,
    [input.appId, input.accountId, input.country, input.termKey, input.today],
  );
}
