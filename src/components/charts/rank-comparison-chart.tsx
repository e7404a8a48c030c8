'use client';
// Daily rank of up to five keywords on one chart (recharts). Rank 1 is at the top; unranked days leave a gap. The
// chart is one image to assistive technology, named by a summary of each line; its keyboard layer is off, so it is no
// tab stop that reads out its axis.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { SERIES_COLOURS } from './colours';

export interface Series {
  keywordId: string;
  term: string;
  days: number;
  points: { date: string; rank: number | null }[];
}

function summaryOf(series: Series[]): string {
  if (series.length === 0) return 'No keyword chosen';
  const from = series[0]!.points[0]?.date;
  const to = series[0]!.points.at(-1)?.date;
  const lines = series.map((item) => {
    const ranked = item.points.filter((point) => point.rank !== null);
    if (ranked.length === 0) return `${item.term}: not ranked`;
    return `${item.term}: #${ranked[0]!.rank} to #${ranked.at(-1)!.rank}, best #${Math.min(...ranked.map((point) => point.rank!))}`;
  });
  return `Daily rank from ${from} to ${to}. ${lines.join('; ')}.`;
}

export function RankComparisonChart({ series }: { series: Series[] }) {
  const dates = series[0]?.points.map((point) => point.date) ?? [];
  const data = dates.map((date, index) => Object.fromEntries([['date', date], ...series.map((item) => [item.keywordId, item.points[index]?.rank ?? null])]));
  return (
    <figure style={{ margin: 0 }}>
      <div style={{ width: '100%', height: 300 }} data-testid="rank-chart" role="img" aria-label={summaryOf(series)}>
        <ResponsiveContainer>
          <LineChart data={data} margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
            <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(5)} minTickGap={24} fontSize={12} />
            <YAxis reversed allowDecimals={false} domain={[1, 'dataMax']} fontSize={12} width={40} />
            <Tooltip formatter={(value, name) => [value === null || value === undefined ? 'not ranked' : `#${value}`, series.find((item) => item.keywordId === name)?.term ?? String(name)]} />
            <Legend formatter={(value) => series.find((item) => item.keywordId === value)?.term ?? String(value)} />
            {series.map((item, index) => (
              <Line key={item.keywordId} dataKey={item.keywordId} name={item.keywordId} type="monotone" stroke={SERIES_COLOURS[index % SERIES_COLOURS.length]} strokeWidth={2} dot={false} connectNulls={false} isAnimationActive={false} />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted" data-testid="rank-chart-caption">{series.map((item) => item.term).join(', ')} · last {series[0]?.days ?? 0} days</figcaption>
    </figure>
  );
}
