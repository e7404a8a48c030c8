'use client';
// One daily series as a line (recharts): rating history, category rank. Values use thousands separators; an inverted
// axis puts position 1 at the top. One image to assistive technology, named by its summary.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber } from '@/components/format';
import { axisWidth } from './axis';

interface Props {
  points: { date: string; value: number | null }[];
  name: string;
  /** Rank-like series: 1 at the top. */
  inverted?: boolean;
  domain?: [number | 'auto' | 'dataMin', number | 'auto' | 'dataMax'];
  decimals?: number;
  testId?: string;
}

export function TimeSeriesChart({
  points,
  name,
  inverted = false,
  domain = ['auto', 'auto'],
  decimals = 0,
  testId,
}: Props) {
  const values = points.map((point) => point.value).filter((value): value is number => value !== null);
  const format = (value: number) => (decimals ? value.toFixed(decimals) : formatNumber(value));
  const summary = values.length
    ? `${name} from ${points[0]!.date} to ${points.at(-1)!.date}: ${format(values[0]!)} to ${format(values.at(-1)!)}, ${inverted ? 'best' : 'highest'} ${format(inverted ? Math.min(...values) : Math.max(...values))}.`
    : `${name}: no data in this period.`;
  return (
    <div style={{ width: '100%', height: 260 }} role="img" aria-label={summary} data-testid={testId}>
      <ResponsiveContainer>
        <LineChart data={points} margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(5)} minTickGap={24} fontSize={12} />
          {/* Wide enough for the longest label, so that six-digit values are never cut. */}
          <YAxis
            reversed={inverted}
            allowDecimals={decimals > 0}
            domain={domain}
            fontSize={12}
            width={axisWidth(values.map(format))}
            tickFormatter={(value: number) => format(value)}
          />
          <Tooltip formatter={(value) => [value === null || value === undefined ? '—' : format(Number(value)), name]} />
          <Line
            dataKey="value"
            name={name}
            type="monotone"
            stroke="#3b5bdb"
            strokeWidth={2}
            dot={false}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
