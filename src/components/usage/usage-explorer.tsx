'use client';
// Credits or calls per day for a chosen range of the last year (this month by default), endpoint and key, from the
// ledger (the rows GET /usage sums for its period), and that ledger as CSV. Axis labels carry thousands separators
// and are sized to the largest value.
import { useEffect, useMemo, useState } from 'react';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisWidth, dayTick } from '@/components/charts/axis';
import { RangeControl, rangeDays, shiftDay, type RangeValue } from '@/components/charts/range-control';
import { downloadCsv } from '@/components/csv';
import { formatNumber } from '@/components/format';
import { trpc } from '@/components/trpc';

type Ledger = Awaited<ReturnType<typeof trpc.usage.ledger.query>>;
type Measure = 'credits' | 'calls';

/** Every day of the range, so that quiet days show as zero. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = shiftDay(day, 1)) days.push(day);
  return days;
}

interface Props {
  periodStart: string;
  today: string;
  /** How far back, in days before today, the ledger may be read. */
  ledgerDays: number;
}

export function UsageExplorer({ periodStart, today, ledgerDays }: Props) {
  const firstOfPeriod = periodStart.slice(0, 10);
  const [ledger, setLedger] = useState<Ledger | null>(null);
  const [failed, setFailed] = useState(false);
  const [endpoint, setEndpoint] = useState('all');
  const [key, setKey] = useState('all');
  const [measure, setMeasure] = useState<Measure>('credits');
  const [range, setRange] = useState<RangeValue>({ preset: 'period', from: null, to: null });
  const { from, to } = rangeDays(range, today, firstOfPeriod);

  const earliest = shiftDay(today, -ledgerDays);
  const valid = from >= earliest && from <= to && to <= today;
  useEffect(() => {
    if (!valid) return;
    let cancelled = false;
    setFailed(false);
    trpc.usage.ledger.query({ from, to }).then(
      (next) => {
        if (!cancelled) setLedger(next);
      },
      () => {
        if (!cancelled) setFailed(true);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [from, to, valid]);

  const endpoints = useMemo(() => [...new Set(ledger?.rows.map((row) => row.endpoint))].sort(), [ledger]);
  const keys = useMemo(
    () => [
      ...new Map(
        ledger?.rows.map((row) => [row.keyId ?? 'session', row.key ? `${row.keyName} (${row.key})` : row.keyName]),
      ).entries(),
    ],
    [ledger],
  );
  const rows = (ledger?.rows ?? []).filter(
    (row) =>
      (endpoint === 'all' || row.endpoint === endpoint) &&
      (key === 'all' || (row.keyId ?? 'session') === key) &&
      row.date >= from &&
      row.date <= to,
  );
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.date, (totals.get(row.date) ?? 0) + row[measure]);
  const data = (valid ? daysOf(from, to) : []).map((date) => ({ date, value: totals.get(date) ?? 0 }));
  const largest = Math.max(0, ...data.map((point) => point.value));
  const sum = rows.reduce((total, row) => total + row[measure], 0);

  function exportCsv() {
    downloadCsv(
      `usage-${from}-to-${to}.csv`,
      ['date', 'endpoint', 'keyId', 'keyName', 'key', 'calls', 'credits'],
      rows.map((row) => [row.date, row.endpoint, row.keyId ?? '', row.keyName, row.key ?? '', row.calls, row.credits]),
    );
  }

  return (
    <div data-testid="usage-explorer">
      <div className="chart-controls" role="group" aria-label="Usage chart filters">
        <label>
          Show
          <select value={measure} onChange={(event) => setMeasure(event.target.value as Measure)}>
            <option value="credits">Credits</option>
            <option value="calls">Calls</option>
          </select>
        </label>
        <label>
          Endpoint
          <select
            value={endpoint}
            onChange={(event) => setEndpoint(event.target.value)}
            data-testid="usage-endpoint-filter"
          >
            <option value="all">All endpoints</option>
            {endpoints.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Key
          <select value={key} onChange={(event) => setKey(event.target.value)} data-testid="usage-key-filter">
            <option value="all">All keys</option>
            {keys.map(([id, label]) => (
              <option key={id} value={id}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <RangeControl
          presets={['period', '7', '30', '90', '365', 'custom']}
          value={range}
          onChange={setRange}
          min={earliest}
          max={today}
          customTo
          testId="usage-range"
        />
        <button type="button" onClick={exportCsv} disabled={!ledger || !valid} data-testid="usage-csv">
          Export CSV
        </button>
      </div>
      {failed && (
        <p className="error" role="alert">
          The usage could not be read: reload the page to try again.
        </p>
      )}
      {!valid && (
        <p className="error" role="alert">
          Choose a range within the last year, its first day on or before its last.
        </p>
      )}
      <p className="muted" aria-live="polite" data-testid="usage-explorer-total">
        {formatNumber(sum)} {measure} from {from} to {to}
        {endpoint !== 'all' ? ` on ${endpoint}` : ''}
        {key !== 'all' ? ` with ${keys.find(([id]) => id === key)?.[1] ?? 'that key'}` : ''}.
      </p>
      <div
        style={{ width: '100%', height: 220 }}
        data-testid="daily-credits-chart"
        role="img"
        aria-label={`${measure === 'credits' ? 'Credits' : 'Calls'} per day from ${from} to ${to}: ${formatNumber(sum)} in all, at most ${formatNumber(largest)} in a day.`}
      >
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 10, right: 10, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
            <XAxis dataKey="date" tickFormatter={dayTick} minTickGap={16} fontSize={12} />
            <YAxis
              allowDecimals={false}
              fontSize={12}
              width={axisWidth([formatNumber(largest)])}
              tickFormatter={(value: number) => formatNumber(value)}
            />
            <Tooltip
              formatter={(value) => [formatNumber(Number(value)), measure === 'credits' ? 'Credits' : 'Calls']}
              labelFormatter={(date) => String(date)}
            />
            <Bar dataKey="value" fill="#3b5bdb" isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
    </div>
  );
}
