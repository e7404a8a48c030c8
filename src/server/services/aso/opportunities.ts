// Keyword opportunities: terms of the app's storefront worth working on, ranked by one documented formula.
import { readOpportunityRows } from '@/server/db/keyword-statements';
import { isoDay } from '@/server/core/dates';
import { freshnessOf, loadAppIn } from './app-context';

/**
 * score = 100 × demand × ease × headroom, rounded to one decimal:
 * - demand   = log10(volume + 1) / log10(maxVolume + 1), maxVolume the largest volume among the candidates;
 * - ease     = 1 − difficulty / 100;
 * - headroom = by current rank: unranked 1.0 · 51+ 0.9 · 11–50 0.75 · 4–10 0.4 · 1–3 0.05 (little left to gain).
 * Candidates: every term the app ranks for or tracks in the storefront on its last day of data.
 */
export function headroom(rank: number | null): number {
  if (rank === null) return 1;
  if (rank <= 3) return 0.05;
  if (rank <= 10) return 0.4;
  if (rank <= 50) return 0.75;
  return 0.9;
}

function reasonFor(candidate: { volume: number; difficulty: number; rank: number | null; tracked: boolean }): string {
  const volume = candidate.volume.toLocaleString('en-US');
  const difficulty = candidate.difficulty <= 35 ? 'low' : candidate.difficulty <= 65 ? 'moderate' : 'high';
  const position =
    candidate.rank === null
      ? 'you do not rank for it yet'
      : candidate.rank <= 3
        ? `you already rank #${candidate.rank}`
        : candidate.rank <= 10
          ? `you rank #${candidate.rank}: the top 3 is close`
          : candidate.rank <= 30
            ? `you rank #${candidate.rank}: the top 10 is within reach`
            : `you rank #${candidate.rank}: plenty of room to climb`;
  const tracking = candidate.tracked ? '' : '; not tracked yet';
  return `${volume} monthly searches, ${difficulty} difficulty (${candidate.difficulty}), ${position}${tracking}.`;
}

export async function keywordOpportunities(
  accountId: string,
  input: { appId: string; country?: string; limit: number },
) {
  const { app, country } = await loadAppIn(accountId, input);
  const rows = await readOpportunityRows({
    appId: app.id,
    store: app.store,
    livemode: app.livemode,
    country,
    day: isoDay(app.asOf),
  });
  const maxVolume = Math.max(1, ...rows.map((row) => row.volume));
  const scored = rows.map((row) => {
    const candidate = {
      volume: row.volume,
      difficulty: row.difficulty,
      rank: row.rank,
      // Every row is a rank row of that day: observed, so null is "not in the results".
      rankStatus: row.rank === null ? ('unranked' as const) : ('ranked' as const),
      tracked: row.keyword_id !== null,
    };
    const demand = Math.log10(row.volume + 1) / Math.log10(maxVolume + 1);
    const score = Math.round(1000 * demand * (1 - row.difficulty / 100) * headroom(row.rank)) / 10;
    return { term: row.term, country, score, ...candidate, keywordId: row.keyword_id, reason: reasonFor(candidate) };
  });
  scored.sort((a, b) => b.score - a.score || b.volume - a.volume || a.term.localeCompare(b.term));
  return {
    country,
    date: isoDay(app.asOf),
    items: scored.slice(0, input.limit).map((item, index) => ({ position: index + 1, ...item })),
    freshness: freshnessOf(app, country, ['search', 'estimates']),
  };
}
