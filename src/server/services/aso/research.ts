// Live keyword research: what the data provider reports for a term now, and where the app stands.
import { db } from '@/server/db';
import { startOfUtcDay } from '@/server/domain/dates';
import { termKeyOf } from '@/server/services/apps/terms';
import { dataProvider } from '@/server/services/ingest/providers';
import { loadApp } from './app-context';

export async function researchKeyword(accountId: string, input: { appId: string; term: string; country: string }) {
  const app = await loadApp(accountId, input.appId);
  const [result, yourRank] = await Promise.all([
    dataProvider().research(input.term, input.country, startOfUtcDay(new Date())),
    db.keywordRank.findUnique({
      where: { appId_country_termKey_date: { appId: app.id, country: input.country, termKey: termKeyOf(input.term), date: app.asOf } },
      select: { rank: true },
    }),
  ]);
  return { ...result, yourRank: yourRank?.rank ?? null };
}
