'use client';
// Daily ranks on one chart (recharts): up to five keywords, or the app and its competitors for one keyword. Rank 1 is at
// the top, with round steps below it; a rank holds for its day, so the lines are steps, not curves. A day without a
// rank leaves a gap, and says why: not in the store's results (not ranked), or not observed at all; days no line was
// observed are shaded, so a gap for lack of data never reads as a fall out of the results. The chart is one image to
// assistive technology, named by a summary of each line; its keyboard layer is off, so it is no tab stop that reads
// out its axis.
import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceArea,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { dayTick, rankTicks } from './axis';
import { SERIES_COLOURS } from './colours';

/** One line: `key` identifies it, `label` names it in the legend, the tooltip and the summary. */
export interface RankSeries {
  key: string;
  label: string;
  points: { date: string; rank: number | null; status: RankStatus }[];
}

type RankStatus = 'ranked' | 'unranked' | 'not_observed';

const NO_RANK: Record<Exclude<RankStatus, 'ranked'>, string> = {
  unranked: 'not ranked',
  not_observed: 'not observed',
};

/** The days without a rank, by why: "not ranked 3 days, not observed 12 days". */
function daysWithout(points: RankSeries['points']): string {
  return (['unranked', 'not_observed'] as const)
    .map((status) => [status, points.filter((point) => point.status === status).length] as const)
    .filter(([, days]) => days > 0)
    .map(([status, days]) => `${NO_RANK[status]} ${days} day${days === 1 ? '' : 's'}`)
    .join(', ');
}

export function summaryOf(series: RankSeries[]): string {
  if (series.length === 0) return 'Nothing chosen';
  const from = series[0]!.points[0]?.date;
  const to = series[0]!.points.at(-1)?.date;
  const lines = series.map((item) => {
    const ranked = item.points.filter((point) => point.rank !== null);
    const without = daysWithout(item.points);
    if (ranked.length === 0) return `${item.label}: no rank (${without})`;
    const best = Math.min(...ranked.map((point) => point.rank!));
    return `${item.label}: #${ranked[0]!.rank} to #${ranked.at(-1)!.rank}, best #${best}${without ? `; ${without}` : ''}`;
  });
  return `Daily rank from ${from} to ${to}. ${lines.join('; ')}.`;
}

/** Runs of days on which no line was observed, as the chart shades them. */
export function unobservedRuns(series: RankSeries[], dates: string[]): { from: string; to: string }[] {
  const runs: { from: string; to: string }[] = [];
  dates.forEach((date, index) => {
    if (!series.every((item) => item.points[index]?.status === 'not_observed')) return;
    const last = runs.at(-1);
    if (last && dates[index - 1] === last.to) last.to = date;
    else runs.push({ from: date, to: date });
  });
  return runs;
}

const statusKey = (key: string) => `${key}:status`;

/** A day of a line without a rank, in words: its status in the chart's row of that day. */
function whyNoRank(row: Record<string, unknown>, key: string): string {
  return row[statusKey(key)] === 'not_observed' ? NO_RANK.not_observed : NO_RANK.unranked;
}

export function RankComparisonChart({ series, caption }: { series: RankSeries[]; caption: string }) {
  const dates = series[0]?.points.map((point) => point.date) ?? [];
  const data = dates.map((date, index) =>
    Object.fromEntries([
      ['date', date],
      ...series.flatMap((item) => [
        [item.key, item.points[index]?.rank ?? null],
        [statusKey(item.key), item.points[index]?.status ?? 'not_observed'],
      ]),
    ]),
  );
  const unobserved = unobservedRuns(series, dates);
  const ranks = series.flatMap((item) => item.points.map((point) => point.rank ?? 1));
  const ticks = rankTicks(ranks.length ? Math.max(...ranks) : 1);
  const labelOf = (key: unknown) => series.find((item) => item.key === key)?.label ?? String(key);
  return (
    <figure style={{ margin: 0 }}>
      <div style={{ width: '100%', height: 300 }} data-testid="rank-chart" role="img" aria-label={summaryOf(series)}>
        <ResponsiveContainer>
          <LineChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="date" tickFormatter={dayTick} minTickGap={24} fontSize={12} />
            <YAxis
              reversed
              allowDecimals={false}
              domain={[1, ticks.at(-1)!]}
              ticks={ticks}
              interval={0}
              fontSize={12}
              width={40}
            />
            {unobserved.map((run) => (
              <ReferenceArea
                key={run.from}
                x1={run.from}
                x2={run.to}
                fill="#9ca3af"
                fillOpacity={0.15}
                ifOverflow="visible"
                data-testid="not-observed-area"
              />
            ))}
            <Tooltip
              formatter={(value, name, item) => [
                value === null || value === undefined
                  ? whyNoRank(item.payload as Record<string, unknown>, String(name))
                  : `#${value}`,
                labelOf(name),
              ]}
            />
            <Legend formatter={labelOf} />
            {series.map((item, index) => (
              <Line
                key={item.key}
                dataKey={item.key}
                name={item.key}
                type="stepAfter"
                stroke={SERIES_COLOURS[index % SERIES_COLOURS.length]}
                strokeWidth={2}
                dot={false}
                connectNulls={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted" data-testid="rank-chart-caption">
        {caption}
        {unobserved.length > 0 && ' · shaded: days not observed'}
      </figcaption>
    </figure>
  );
}
