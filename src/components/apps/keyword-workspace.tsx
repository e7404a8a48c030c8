'use client';
// The tracked keywords of one storefront: a table that sorts and filters (TanStack Table), with a 7-day sparkline per
// keyword and a CSV export of what it shows, and a rank chart that compares up to five keywords, or the app with its
// competitors for one keyword, over 30, 90 or 365 days or from a chosen day. The comparison and its range live in the
// URL (`compare`, `vs`, `range`, `from`), so a view can be shared, and change without a server round trip: the
// histories come from the same procedure as the API's.
import {
  type ColumnDef,
  type ColumnFiltersState,
  type SortingState,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
} from '@tanstack/react-table';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState } from 'react';
import { RemoveKeywordButton } from '@/components/apps/app-actions';
import { RankComparisonChart, type RankSeries } from '@/components/charts/rank-comparison-chart';
import { Sparkline } from '@/components/charts/sparkline';
import { TableScroll } from '@/components/common/table-scroll';
import { downloadCsv } from '@/components/csv';
import { RangeControl } from '@/components/charts/range-control';
import { daysOf, MAX_COMPARED, type ChartState, type Range } from './rank-chart-state';
import { formatNumber } from '@/components/format';
import { trpc } from '@/components/trpc';
import type { keywordHistoryOutput, keywordListItemOutput } from '@/server/api/routers/keywords/keywords.schema';
import type { z } from 'zod';

/** A row of the table: what GET /apps/{id}/keywords answers for one keyword. */
export type KeywordRow = Pick<
  z.infer<typeof keywordListItemOutput>,
  'keywordId' | 'term' | 'country' | 'rank' | 'rankDelta' | 'volume' | 'difficulty'
>;
/** A keyword's history over `days` days, as GET /apps/{id}/keywords/{keywordId}/history answers it. */
export type KeywordHistory = z.infer<typeof keywordHistoryOutput> & { days: number };

interface Props {
  appId: string;
  appName: string;
  country: string;
  keywords: KeywordRow[];
  sparklines: Record<string, { date: string; rank: number | null }[]>;
  /** The last day of data; ranges end there. */
  dataThrough: string | null;
  initial: ChartState;
  initialHistories: KeywordHistory[];
  emptyMessage: string;
}

/** The lines the chart draws from the histories it has (while others load, those of the previous choice). */
function seriesOf(
  chart: ChartState,
  histories: KeywordHistory[],
  appName: string,
): { series: RankSeries[]; caption: string; competitorsLeftOut: number } {
  const days = histories[0]?.days ?? 0;
  if (chart.vs === 'keywords') {
    const series = histories
      .filter((history) => chart.compare.includes(history.keywordId))
      .map((history) => ({ key: history.keywordId, label: history.term, points: history.points }));
    return {
      series,
      caption: `${series.map((item) => item.label).join(', ')} · last ${days} days`,
      competitorsLeftOut: 0,
    };
  }
  const history = histories.find((item) => item.keywordId === chart.compare[0]) ?? histories[0];
  if (!history) return { series: [], caption: '', competitorsLeftOut: 0 };
  const drawn = history.competitors.slice(0, MAX_COMPARED - 1);
  const series = [
    { key: 'app', label: appName, points: history.points },
    ...drawn.map((competitor) => ({
      key: competitor.competitorId,
      label: competitor.name ?? competitor.storeId,
      points: competitor.points,
    })),
  ];
  return {
    series,
    caption: `“${history.term}”: ${series.map((item) => item.label).join(', ')} · last ${days} days`,
    competitorsLeftOut: history.competitors.length - drawn.length,
  };
}

function Delta({ value }: { value: number | null }) {
  // Null: an end of the window is not a rank (out of the results, or not observed): no movement to tell.
  if (value === null)
    return (
      <span className="muted" title="Not ranked at one end of the window">
        —
      </span>
    );
  if (value === 0) return <span className="muted">0</span>;
  return value > 0 ? (
    <span className="delta-up">
      ▲ {value}
      <span className="visually-hidden"> places up</span>
    </span>
  ) : (
    <span className="delta-down">
      ▼ {-value}
      <span className="visually-hidden"> places down</span>
    </span>
  );
}

function useChartUrl(state: ChartState) {
  // The URL follows the chart without a navigation (Next.js keeps history.replaceState in step with its router). The
  // first state came from the URL (or its defaults), so only a change is written.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const params = new URLSearchParams(window.location.search);
    params.delete('keyword');
    if (state.compare.length) params.set('compare', state.compare.join(','));
    else params.delete('compare');
    if (state.vs === 'competitors') params.set('vs', 'competitors');
    else params.delete('vs');
    params.set('range', state.range);
    if (state.range === 'custom' && state.from) params.set('from', state.from);
    else params.delete('from');
    const next = `${window.location.pathname}?${params}`;
    if (next !== `${window.location.pathname}${window.location.search}`) window.history.replaceState(null, '', next);
  }, [state]);
}

export function KeywordWorkspace({
  appId,
  appName,
  country,
  keywords,
  sparklines,
  dataThrough,
  initial,
  initialHistories,
  emptyMessage,
}: Props) {
  const [chart, setChart] = useState<ChartState>(initial);
  const [histories, setHistories] = useState<KeywordHistory[]>(initialHistories);
  // The selection whose histories could not be read: its error shows until the selection changes, which retries.
  const [failedFor, setFailedFor] = useState<string | null>(null);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [columnFilters, setColumnFilters] = useState<ColumnFiltersState>([]);
  const days = daysOf(chart, dataThrough);
  useChartUrl(chart);

  // The chart waits while the histories it has are not the ones chosen.
  const wanted = chart.compare.map((keywordId) => `${keywordId}:${days}`).join(',');
  const failed = failedFor === wanted;
  const loadingSeries = wanted !== histories.map((item) => `${item.keywordId}:${item.days}`).join(',') && !failed;
  const against = chart.vs === 'competitors';
  const { series, caption, competitorsLeftOut } = seriesOf(chart, histories, appName);

  useEffect(() => {
    if (!loadingSeries) return;
    let cancelled = false;
    Promise.all(
      chart.compare.map(async (keywordId) => {
        const known = histories.find((item) => item.keywordId === keywordId && item.days === days);
        return known ?? { ...(await trpc.keywords.history.query({ id: appId, keywordId, days })), days };
      }),
    ).then(
      (next) => {
        if (!cancelled) setHistories(next);
      },
      () => {
        if (!cancelled) setFailedFor(wanted);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [appId, chart.compare, days, histories, loadingSeries, wanted]);

  function toggleCompared(keywordId: string) {
    setChart((current) => {
      if (current.compare.includes(keywordId))
        return { ...current, compare: current.compare.filter((id) => id !== keywordId) };
      // Against competitors the chart follows one keyword: ticking another one moves it there.
      if (current.vs === 'competitors') return { ...current, compare: [keywordId] };
      if (current.compare.length >= MAX_COMPARED) return current;
      return { ...current, compare: [...current.compare, keywordId] };
    });
  }

  const columns = useMemo<ColumnDef<KeywordRow>[]>(
    () => [
      {
        id: 'term',
        accessorKey: 'term',
        header: 'Keyword',
        filterFn: (row, _id, value: string) => row.original.term.toLowerCase().includes(value.toLowerCase()),
        cell: ({ row }) => <>{row.original.term}</>,
      },
      {
        id: 'rank',
        accessorFn: (row) => row.rank ?? undefined,
        sortUndefined: 'last',
        header: 'Rank',
        filterFn: (row, _id, value: string) => {
          const rank = row.original.rank;
          if (value === 'top10') return rank !== null && rank <= 10;
          if (value === 'top50') return rank !== null && rank <= 50;
          if (value === 'ranked') return rank !== null;
          if (value === 'unranked') return rank === null;
          return true;
        },
        cell: ({ row }) => <span data-testid="rank">{row.original.rank ?? '—'}</span>,
      },
      {
        id: 'rankDelta',
        accessorKey: 'rankDelta',
        header: 'Change (7 days)',
        filterFn: (row, _id, value: string) =>
          value === 'up'
            ? (row.original.rankDelta ?? 0) > 0
            : value === 'down'
              ? (row.original.rankDelta ?? 0) < 0
              : value === 'same'
                ? row.original.rankDelta === 0
                : true,
        cell: ({ row }) => (
          <span data-testid="rank-delta" data-value={String(row.original.rankDelta)}>
            <Delta value={row.original.rankDelta} />
          </span>
        ),
      },
      {
        id: 'volume',
        accessorFn: (row) => row.volume ?? undefined,
        sortUndefined: 'last',
        header: 'Volume',
        filterFn: (row, _id, value: number) => (row.original.volume ?? 0) >= value,
        cell: ({ row }) => (
          <span data-testid="volume">{row.original.volume === null ? '—' : formatNumber(row.original.volume)}</span>
        ),
      },
      {
        id: 'difficulty',
        accessorFn: (row) => row.difficulty ?? undefined,
        sortUndefined: 'last',
        header: 'Difficulty',
        filterFn: (row, _id, value: number) => row.original.difficulty !== null && row.original.difficulty <= value,
        cell: ({ row }) => <span data-testid="difficulty">{row.original.difficulty ?? '—'}</span>,
      },
      {
        id: 'trend',
        header: 'Last 7 days',
        enableSorting: false,
        cell: ({ row }) => (
          <Sparkline
            points={sparklines[row.original.keywordId] ?? []}
            label={`Rank of ${row.original.term}, last 7 days`}
          />
        ),
      },
      {
        id: 'actions',
        header: () => <span className="visually-hidden">Actions</span>,
        enableSorting: false,
        cell: ({ row }) => (
          <div className="row" style={{ flexWrap: 'nowrap' }}>
            <label style={{ flexDirection: 'row', alignItems: 'center', gap: '0.3rem', color: 'var(--text)' }}>
              <input
                type="checkbox"
                checked={chart.compare.includes(row.original.keywordId)}
                disabled={
                  !against && !chart.compare.includes(row.original.keywordId) && chart.compare.length >= MAX_COMPARED
                }
                onChange={() => toggleCompared(row.original.keywordId)}
                aria-label={`Chart ${row.original.term}`}
              />
              Chart
            </label>
            <RemoveKeywordButton appId={appId} keywordId={row.original.keywordId} term={row.original.term} />
          </div>
        ),
      },
    ],
    [against, appId, chart.compare, sparklines],
  );

  const table = useReactTable({
    data: keywords,
    columns,
    state: { sorting, columnFilters },
    onSortingChange: setSorting,
    onColumnFiltersChange: setColumnFilters,
    // Ascending first on every column (rank 1 first); unknown values (unranked, no volume yet) always last.
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const rows = table.getRowModel().rows;
  const filterOf = (id: string) => table.getColumn(id)?.getFilterValue();
  const setFilter = (id: string, value: unknown) =>
    table.getColumn(id)?.setFilterValue(value === '' || value === 'all' ? undefined : value);

  function exportCsv() {
    downloadCsv(
      `keywords-${country}-${dataThrough ?? 'no-data'}.csv`,
      ['keywordId', 'term', 'country', 'rank', 'rankDelta', 'volume', 'difficulty'],
      rows.map(({ original: row }) => [
        row.keywordId,
        row.term,
        row.country,
        row.rank,
        row.rankDelta,
        row.volume,
        row.difficulty,
      ]),
    );
  }

  if (keywords.length === 0) return <p className="muted">{emptyMessage}</p>;

  return (
    <>
      <div className="row" role="search" aria-label="Filter keywords" style={{ marginTop: '0.75rem' }}>
        <label>
          Keyword contains
          <input
            type="search"
            value={(filterOf('term') as string) ?? ''}
            onChange={(event) => setFilter('term', event.target.value)}
            data-testid="keyword-filter"
          />
        </label>
        <label>
          Rank
          <select
            value={(filterOf('rank') as string) ?? 'all'}
            onChange={(event) => setFilter('rank', event.target.value)}
          >
            <option value="all">Any</option>
            <option value="top10">Top 10</option>
            <option value="top50">Top 50</option>
            <option value="ranked">Ranked</option>
            <option value="unranked">Not ranked</option>
          </select>
        </label>
        <label>
          Change
          <select
            value={(filterOf('rankDelta') as string) ?? 'all'}
            onChange={(event) => setFilter('rankDelta', event.target.value)}
          >
            <option value="all">Any</option>
            <option value="up">Moved up</option>
            <option value="down">Moved down</option>
            <option value="same">Unchanged</option>
          </select>
        </label>
        <label>
          Volume at least
          <input
            type="number"
            min={0}
            inputMode="numeric"
            value={(filterOf('volume') as number | undefined) ?? ''}
            onChange={(event) => setFilter('volume', event.target.value === '' ? '' : Number(event.target.value))}
            style={{ width: '8rem' }}
          />
        </label>
        <label>
          Difficulty at most
          <input
            type="number"
            min={0}
            max={100}
            inputMode="numeric"
            value={(filterOf('difficulty') as number | undefined) ?? ''}
            onChange={(event) => setFilter('difficulty', event.target.value === '' ? '' : Number(event.target.value))}
            style={{ width: '6rem' }}
          />
        </label>
        <button type="button" onClick={exportCsv} data-testid="keywords-csv">
          Export CSV
        </button>
      </div>
      <p className="muted" aria-live="polite">
        {rows.length} of {keywords.length} keywords shown.
      </p>
      <TableScroll label="Tracked keywords">
        <table data-testid="keywords-table">
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  return (
                    <th
                      key={header.id}
                      aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                    >
                      {header.column.getCanSort() ? (
                        <button type="button" className="sort-button" onClick={header.column.getToggleSortingHandler()}>
                          {flexRender(header.column.columnDef.header, header.getContext())}
                          <span aria-hidden="true">{sorted === 'asc' ? ' ↑' : sorted === 'desc' ? ' ↓' : ' ↕'}</span>
                        </button>
                      ) : (
                        flexRender(header.column.columnDef.header, header.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-keyword-id={row.original.keywordId}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {rows.length === 0 && <p className="muted">No keyword matches these filters.</p>}

      <h2 style={{ marginTop: '1.5rem' }}>Rank history</h2>
      <div className="chart-controls" role="group" aria-label="Chart range">
        <label>
          Compare
          <select
            value={chart.vs}
            onChange={(event) => {
              const vs = event.target.value as ChartState['vs'];
              setChart((current) => ({
                ...current,
                vs,
                compare: vs === 'competitors' ? current.compare.slice(0, 1) : current.compare,
              }));
            }}
            data-testid="chart-vs"
          >
            <option value="keywords">Keywords</option>
            <option value="competitors">This app with its competitors</option>
          </select>
        </label>
        <RangeControl
          presets={['30', '90', '365', 'custom']}
          value={{ preset: chart.range, from: chart.from, to: null }}
          onChange={(next) => setChart((current) => ({ ...current, range: next.preset as Range, from: next.from }))}
          max={dataThrough ?? new Date().toISOString().slice(0, 10)}
          testId="chart-range"
        />
        <p className="muted" style={{ margin: 0 }}>
          {against
            ? 'Tick “Chart” on the keyword to compare this app’s rank with its competitors’.'
            : `Tick “Chart” on up to ${MAX_COMPARED} keywords to compare them. ${chart.compare.length} of ${MAX_COMPARED} chosen.`}
        </p>
      </div>
      <div aria-busy={loadingSeries}>
        {failed && (
          <p className="error" role="alert">
            The history could not be read: change the selection or the range to try again.
          </p>
        )}
        {chart.compare.length === 0 ? (
          <p className="muted">No keyword chosen: tick “Chart” in the table.</p>
        ) : (
          series.length > 0 && <RankComparisonChart series={series} caption={caption} />
        )}
        {against && !loadingSeries && series.length === 1 && (
          <p className="muted" data-testid="no-competitors">
            This app has no competitors yet:{' '}
            <Link href={`/apps/${appId}/competitors`}>add the apps you compete with</Link>, and their ranks for your
            keywords appear here.
          </p>
        )}
        {against && competitorsLeftOut > 0 && (
          <p className="muted">
            The chart draws the first {MAX_COMPARED - 1} competitors; {competitorsLeftOut} more are in the API’s answer.
          </p>
        )}
      </div>
      <p className="muted">
        Each line is a daily rank for the keyword in {country}, as{' '}
        <Link href="/docs/api">GET …/keywords/{'{keywordId}'}/history</Link> answers it
        {against && (
          <>
            {' '}
            (its <code>competitors</code> member for theirs)
          </>
        )}
        .
      </p>
    </>
  );
}
