'use client';
// One daily series as a line (recharts): rating history, category rank. Values use thousands separators; an inverted
// axis puts position 1 at the top, with round steps, and draws the daily positions as steps rather than a curve between
// them. One image to assistive technology, named by its summary.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatNumber } from '@/components/format';
import { axisWidth, dayTick, rankTicks } from './axis';

interface Props {
  points: { date: string; value: number | null }[];
  name: string;
  /** Rank-like series: 1 at the top, round steps down to the worst rank shown. */
  inverted?: boolean;
  /** Where the axis starts and ends, and its ticks, when not from the data (ratings from 1 to 5). */
  domain?: [number | 'auto' | 'dataMin', number | 'auto' | 'dataMax'];
  ticks?: number[];
  decimals?: number;
  testId?: string;
}

export function TimeSeriesChart({
  points,
  name,
  inverted = false,
  domain = ['auto', 'auto'],
  ticks,
  decimals = 0,
  testId,
}: Props) {
  const values = points.map((point) => point.value).filter((value): value is number => value !== null);
  const format = (value: number) => (decimals ? value.toFixed(decimals) : formatNumber(value));
  const shownTicks = ticks ?? (inverted && values.length ? rankTicks(Math.max(...values)) : undefined);
  const shownDomain = inverted && shownTicks && !ticks ? [1, shownTicks.at(-1)!] : domain;
  const summary = values.length
    ? `${name} from ${points[0]!.date} to ${points.at(-1)!.date}: ${format(values[0]!)} to ${format(values.at(-1)!)}, ${inverted ? 'best' : 'highest'} ${format(inverted ? Math.min(...values) : Math.max(...values))}.`
    : `${name}: no data in this period.`;
  return (
    <div style={{ width: '100%', height: 260 }} role="img" aria-label={summary} data-testid={testId}>
      <ResponsiveContainer>
        <LineChart data={points} margin={{ top: 10, right: 16, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" />
          <XAxis dataKey="date" tickFormatter={dayTick} minTickGap={24} fontSize={12} />
          {/* Wide enough for the longest label, so that six-digit values are never cut. */}
          <YAxis
            reversed={inverted}
            allowDecimals={decimals > 0}
            domain={shownDomain}
            ticks={shownTicks}
            interval={shownTicks ? 0 : 'preserveEnd'}
            fontSize={12}
            width={axisWidth([...values, ...(shownTicks ?? [])].map(format))}
            tickFormatter={(value: number) => (ticks ? formatNumber(value) : format(value))}
          />
          <Tooltip formatter={(value) => [value === null || value === undefined ? '—' : format(Number(value)), name]} />
          <Line
            dataKey="value"
            name={name}
            type={inverted ? 'stepAfter' : 'linear'}
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
