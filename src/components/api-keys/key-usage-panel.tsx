'use client';
// One key's usage: its calls (failures apart) and credits per day for a chosen range, and its request log, the last
// calls it made with their status, cost, address and request id, filtered by status class and endpoint, a page at a
// time.
import { useState, type FormEvent } from 'react';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { axisWidth, dayTick } from '@/components/charts/axis';
import {
  dayCount,
  RangeControl,
  rangeDays,
  shiftDay,
  type RangePreset,
  type RangeValue,
} from '@/components/charts/range-control';
import { SERIES_COLOURS } from '@/components/charts/colours';
import { TableScroll } from '@/components/common/table-scroll';
import { formatCount, formatInstant, formatNumber } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useReading } from '@/components/use-reading';
import type { KeyCallsPage, KeyUsage } from '@/server/services/api-keys/key-calls';

interface Props {
  initialUsage: KeyUsage;
  initialCalls: KeyCallsPage;
  /** How far back, in days before today, the usage may be read. */
  ledgerDays: number;
}

const PRESETS: RangePreset[] = ['7', '30', '90', '365', 'custom'];

interface LogFilter {
  statusClass: '' | '2xx' | '3xx' | '4xx' | '5xx';
  endpoint: string;
}

export function KeyUsagePanel({ initialUsage, initialCalls, ledgerDays }: Props) {
  const keyId = initialUsage.key.id;
  return (
    <>
      <section className="panel" aria-labelledby="key-usage-heading">
        <h2 id="key-usage-heading">Calls and credits</h2>
        <KeyUsageChart keyId={keyId} initial={initialUsage} ledgerDays={ledgerDays} />
      </section>
      <RequestLog keyId={keyId} initial={initialCalls} />
    </>
  );
}

function KeyUsageChart({ keyId, initial, ledgerDays }: { keyId: string; initial: KeyUsage; ledgerDays: number }) {
  const [usage, setUsage] = useState(initial);
  const { run: reading, pending, error } = useReading();
  const today = initial.to;
  const initialDays = String(dayCount(initial));
  const [range, setRange] = useState<RangeValue>(
    (PRESETS as string[]).includes(initialDays)
      ? { preset: initialDays as RangePreset, from: null, to: null }
      : { preset: 'custom', from: initial.from, to: initial.to },
  );

  function onRange(next: RangeValue) {
    setRange(next);
    if (next.preset === 'custom' && !next.from) return;
    const { from, to } = rangeDays(next, today);
    void reading(async () => setUsage(await trpc.apiKeys.usage.query({ keyId, from, to })));
  }

  const data = usage.days.map((day) => ({
    date: day.date,
    succeeded: day.calls - day.failures,
    failed: day.failures,
    credits: day.credits,
  }));
  const calls = usage.days.reduce((sum, day) => sum + day.calls, 0);
  const failures = usage.days.reduce((sum, day) => sum + day.failures, 0);
  const credits = usage.days.reduce((sum, day) => sum + day.credits, 0);
  const mostCalls = Math.max(0, ...usage.days.map((day) => day.calls));
  const mostCredits = Math.max(0, ...usage.days.map((day) => day.credits));
  const summary = `From ${usage.from} to ${usage.to}: ${formatCount(calls, 'call')}, ${formatNumber(failures)} of them failed, and ${formatCount(credits, 'credit')}.`;
  return (
    <>
      <h3>Per day</h3>
      <div className="chart-controls" role="group" aria-label="Range of the chart" aria-busy={pending}>
        <RangeControl
          presets={PRESETS}
          value={range}
          onChange={onRange}
          min={shiftDay(today, -ledgerDays)}
          max={today}
          customTo
          testId="key-usage-range"
        />
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="muted" aria-live="polite" data-testid="key-usage-total">
        {summary}
      </p>
      <div
        style={{ width: '100%', height: 240 }}
        role="img"
        aria-label={`${summary} At most ${formatCount(mostCalls, 'call')} and ${formatCount(mostCredits, 'credit')} in a day.`}
        data-testid="key-usage-chart"
      >
        <ResponsiveContainer>
          <ComposedChart data={data} margin={{ top: 10, right: 10, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e5e7eb" vertical={false} />
            <XAxis dataKey="date" tickFormatter={dayTick} minTickGap={16} fontSize={12} />
            <YAxis
              yAxisId="calls"
              allowDecimals={false}
              fontSize={12}
              width={axisWidth([formatNumber(mostCalls)])}
              tickFormatter={(value: number) => formatNumber(value)}
            />
            <YAxis
              yAxisId="credits"
              orientation="right"
              allowDecimals={false}
              fontSize={12}
              width={axisWidth([formatNumber(mostCredits)])}
              tickFormatter={(value: number) => formatNumber(value)}
            />
            <Tooltip formatter={(value, name) => [formatNumber(Number(value)), String(name)]} />
            <Legend />
            <Bar
              yAxisId="calls"
              dataKey="succeeded"
              name="Calls that succeeded"
              stackId="calls"
              fill={SERIES_COLOURS[0]}
              isAnimationActive={false}
            />
            <Bar
              yAxisId="calls"
              dataKey="failed"
              name="Calls that failed"
              stackId="calls"
              fill={SERIES_COLOURS[1]}
              isAnimationActive={false}
            />
            <Line
              yAxisId="credits"
              dataKey="credits"
              name="Credits"
              type="monotone"
              stroke={SERIES_COLOURS[2]}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </>
  );
}

function RequestLog({ keyId, initial }: { keyId: string; initial: KeyCallsPage }) {
  const [page, setPage] = useState(initial);
  const [filter, setFilter] = useState<LogFilter>({ statusClass: '', endpoint: '' });
  const { run: reading, pending, error } = useReading();
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));

  function load(next: LogFilter, pageNumber: number) {
    return reading(async () => {
      setPage(
        await trpc.apiKeys.calls.query({
          keyId,
          page: pageNumber,
          ...(next.statusClass && { statusClass: next.statusClass }),
          ...(next.endpoint && { endpoint: next.endpoint }),
        }),
      );
      setFilter(next);
    });
  }

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void load(
      {
        statusClass: String(form.get('statusClass') ?? '') as LogFilter['statusClass'],
        endpoint: String(form.get('endpoint') ?? ''),
      },
      1,
    );
  }

  return (
    <section className="panel" aria-labelledby="request-log-heading">
      <h2 id="request-log-heading">Request log</h2>
      <p className="muted">
        The last {formatCount(page.kept, 'call')} of this key, failures included: they cost nothing, and they are what
        to look at when a client misbehaves. A call’s request id is its <code>X-Request-Id</code>. Calls refused before
        the key was recognised (a wrong or revoked secret) are not listed.
      </p>
      <form
        className="row"
        onSubmit={onFilter}
        // A choice applies at once, as every filter of the dashboard does.
        onChange={(event) => event.currentTarget.requestSubmit()}
        aria-label="Filter the request log"
      >
        <label>
          Status
          <select name="statusClass" defaultValue="">
            <option value="">All statuses</option>
            <option value="2xx">2xx (succeeded)</option>
            <option value="3xx">3xx</option>
            <option value="4xx">4xx (refused)</option>
            <option value="5xx">5xx (failed on our side)</option>
          </select>
        </label>
        <label>
          Endpoint
          <select name="endpoint" defaultValue="">
            <option value="">All endpoints</option>
            {page.endpoints.map((endpoint) => (
              <option key={endpoint} value={endpoint}>
                {endpoint}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void load(filter, 1)} disabled={pending}>
          Refresh
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="muted" aria-live="polite" data-testid="request-log-count">
        {formatNumber(page.total)} {page.total === 1 ? 'call' : 'calls'}
        {page.total > page.pageSize ? `; page ${page.page} of ${pages}` : ''}.
      </p>
      {page.calls.length === 0 ? (
        <p className="empty">No call matches.</p>
      ) : (
        <TableScroll label="Request log">
          <table data-testid="request-log-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Endpoint</th>
                <th>Status</th>
                <th>Credits</th>
                <th>From</th>
                <th>Request id</th>
              </tr>
            </thead>
            <tbody>
              {page.calls.map((call) => (
                <tr key={call.id} data-status={call.status}>
                  <td>{formatInstant(call.at)}</td>
                  <td className="mono">{call.endpoint}</td>
                  <td>
                    <span className={`badge ${call.status >= 400 ? 'revoked' : 'active'}`}>{call.status}</span>
                  </td>
                  <td>{formatNumber(call.credits)}</td>
                  <td className="mono">{call.clientAddress ?? '—'}</td>
                  <td className="mono">{call.requestId}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {pages > 1 && (
        <nav className="row" aria-label="Request log pages">
          <button type="button" onClick={() => void load(filter, page.page - 1)} disabled={pending || page.page <= 1}>
            Newer
          </button>
          <button
            type="button"
            onClick={() => void load(filter, page.page + 1)}
            disabled={pending || page.page >= pages}
          >
            Older
          </button>
        </nav>
      )}
    </section>
  );
}
