// Live keyword research: what the data provider reports for a term now, and where the app stands.
import { hotQuery } from '@/server/db';
import { isoDay, startOfUtcDay } from '@/server/domain/dates';
import { termKeyOf } from '@/server/services/apps/terms';
import { dataProvider } from '@/server/services/ingest/providers';
import { loadApp } from './app-context';

export async function researchKeyword(accountId: string, input: { appId: string; term: string; country: string }) {
  const today = startOfUtcDay(new Date());
  // The app, the provider and the app's rank on its last day of data at once: the rank's statement finds that day
  // itself (and nothing for an app of another account, which loadApp answers 404).
  const [, result, ranks] = await Promise.all([
    loadApp(accountId, input.appId),
    dataProvider().research(input.term, input.country, today),
    hotQuery<{ rank: number | null }>(
      `SELECT r.rank FROM keyword_ranks r
       WHERE r.app_id = $1::uuid AND r.country = $3 AND r.term_key = $4
         AND r.date = (SELECT COALESCE(t.refreshed_through, $5::date) FROM tracked_apps t WHERE t.id = $1::uuid AND t.account_id = $2::uuid)`,
      [input.appId, accountId, input.country, termKeyOf(input.term), isoDay(today)],
    ),
  ]);
  return { ...result, yourRank: ranks[0]?.rank ?? null };
}
