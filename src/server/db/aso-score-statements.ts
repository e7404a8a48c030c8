// The statement of the ASO score's inputs: in one read, the current listing, the tracked keywords with the day's rank
// and volume, the latest rating, the review sentiment since `since` and the last release.
import type { Store } from '@/generated/prisma/enums';
import { db } from './index';

/** `asOf`: the app's last day of data; `since`: the first day of the review window. */
export async function readAsoScoreInputs(input: {
  appId: string;
  storeAppId: number;
  primaryCountry: string;
  store: Store;
  livemode: boolean;
  country: string;
  asOf: Date;
  since: Date;
}) {
  const [inputs] = await db.$queryRaw<
    {
      listing: {
        title: string;
        subtitle: string | null;
        description: string;
        keywordField: string | null;
        screenshotsCount: number;
        hasVideo: boolean;
      } | null;
      keywords: { term: string; rank: number | null; volume: number | null }[];
      rating: { average: number; count: number } | null;
      reviews: number;
      negative: number;
      last_release: Date | null;
    }[]
  >`
    SELECT
      (SELECT json_build_object('title', title, 'subtitle', subtitle, 'description', description, 'keywordField', keyword_field,
                                'screenshotsCount', screenshots_count, 'hasVideo', has_video)
       FROM metadata_snapshots WHERE store_app_id = ${input.storeAppId} AND country = ${input.country} ORDER BY captured_at DESC LIMIT 1) AS listing,
      (SELECT coalesce(json_agg(json_build_object('term', k.term, 'rank', r.rank, 'volume', m.volume)), '[]')
       FROM tracked_keywords k
       JOIN tracked_apps a ON a.id = k.app_id
       LEFT JOIN app_ranks r ON r.store_app_id = a.store_app_id AND r.country = k.country AND r.term_key = k.term_key AND r.date = ${input.asOf}
       -- Metrics looked up per tracked keyword, not joined by day (see listKeywords in keywords.ts).
       LEFT JOIN LATERAL (
         SELECT volume FROM keyword_metrics
         WHERE livemode = ${input.livemode} AND store = ${input.store}::"Store" AND country = k.country AND term_key = k.term_key AND date = ${input.asOf} OFFSET 0
       ) m ON true
       WHERE k.app_id = ${input.appId}::uuid AND k.country = ${input.country}) AS keywords,
      (SELECT json_build_object('average', average, 'count', count)
       FROM rating_snapshots WHERE store_app_id = ${input.storeAppId} AND country = ${input.primaryCountry} AND date <= ${input.asOf} ORDER BY date DESC LIMIT 1) AS rating,
      (SELECT count(*)::int FROM reviews WHERE store_app_id = ${input.storeAppId} AND reviewed_at >= ${input.since}
         AND country IN (SELECT country FROM app_storefronts WHERE app_id = ${input.appId}::uuid)) AS reviews,
      (SELECT count(*)::int FROM reviews WHERE store_app_id = ${input.storeAppId} AND reviewed_at >= ${input.since} AND sentiment <= -0.05
         AND country IN (SELECT country FROM app_storefronts WHERE app_id = ${input.appId}::uuid)) AS negative,
      (SELECT max(changed_at) FROM metadata_changes WHERE store_app_id = ${input.storeAppId} AND country = ${input.country} AND field = 'version') AS last_release`;
  return inputs!;
}
