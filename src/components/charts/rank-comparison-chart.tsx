'use client';
// Daily ranks on one chart (recharts): up to five keywords, or the app and its competitors for one keyword. Rank 1 is at
// the top, with round steps below it; a rank holds for its day, so the lines are steps, not curves; unranked days leave
// a gap. The chart is one image to assistive technology, named by a summary of each line;
// its keyboard layer is off, so it is no tab stop that reads out its axis.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { dayTick, rankTicks } from './axis';
import { SERIES_COLOURS } from './colours';

/** One line: `key` identifies it, `label` names it in the legend, the tooltip and the summary. */
export interface RankSeries {
  key: string;
  label: string;
  points: { date: string; rank: number | null }[];
}

function summaryOf(series: RankSeries[]): string {
  if (series.length === 0) return 'Nothing chosen';
  const from = series[0]!.points[0]?.date;
  const to = series[0]!.points.at(-1)?.date;
  const lines = series.map((item) => {
    const ranked = item.points.filter((point) => point.rank !== null);
    if (ranked.length === 0) return `${item.label}: not ranked`;
    return `${item.label}: #${ranked[0]!.rank} to #${ranked.at(-1)!.rank}, best #${Math.min(...ranked.map((point) => point.rank!))}`;
  });
  return `Daily rank from ${from} to ${to}. ${lines.join('; ')}.`;
}

export function RankComparisonChart({ series, caption }: { series: RankSeries[]; caption: string }) {
  const dates = series[0]?.points.map((point) => point.date) ?? [];
  const data = dates.map((date, index) =>
    Object.fromEntries([['date', date], ...series.map((item) => [item.key, item.points[index]?.rank ?? null])]),
  );
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
            <Tooltip
              formatter={(value, name) => [
                value === null || value === undefined ? 'not ranked' : `#${value}`,
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
      </figcaption>
    </figure>
  );
}
