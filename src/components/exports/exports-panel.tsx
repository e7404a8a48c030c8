'use client';
// Exports (issue 68): ask for datasets of the account's apps over a date range as Parquet, CSV or JSON Lines, and
// download the files where the export is listed. An export runs in the background: while one is queued or running,
// the page reads the list again every few seconds, so its progress moves and its files appear without a reload. What
// it costs is said before it is asked for (a credit a thousand rows) and on each export once counted.
import { useEffect, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { ConfirmButton } from '@/components/common/confirm-button';
import { TableScroll } from '@/components/common/table-scroll';
import { formatCount, formatInstant, formatNumber, formatStore } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useAction } from '@/components/use-action';

type Export = Awaited<ReturnType<typeof trpc.exports.list.query>>[number];
type NewExport = Parameters<typeof trpc.exports.create.mutate>[0];

const FORMATS: { value: Export['format']; label: string; about: string }[] = [
  { value: 'parquet', label: 'Parquet', about: 'typed columns, for warehouses, DuckDB, pandas and Polars' },
  { value: 'csv', label: 'CSV', about: 'RFC 4180, for spreadsheets' },
  { value: 'jsonl', label: 'JSON Lines', about: 'one JSON object a line' },
];

/** "keyword_ranks" → "Keyword ranks". */
const datasetLabel = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1).replaceAll('_', ' ')}`;

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
}

function stateOf(item: Export): string {
  if (item.state === 'running') return `Running, ${item.progress.percent}%`;
  if (item.state === 'failed') return `Failed: ${item.error ?? 'not written'}`;
  return datasetLabel(item.state);
}

const daysBefore = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

export function ExportsPanel({
  exports,
  apps,
  datasets,
  limits,
  today,
  livemode,
}: {
  exports: Export[];
  apps: { id: string; name: string; store: 'app_store' | 'google_play' }[];
  datasets: { name: string; description: string }[];
  limits: { fileDays: number; maxDays: number; rowsPerCredit: number };
  today: string;
  livemode: boolean;
}) {
  const { run, pending, error, router } = useAction();
  const [chosenApps, setChosenApps] = useState<Set<string>>(() => new Set(apps.map((app) => app.id)));
  const working = exports.some((item) => item.state === 'queued' || item.state === 'running');

  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => router.refresh(), 2_000);
    return () => clearInterval(timer);
  }, [working, router]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const input: NewExport = {
      datasets: data.getAll('datasets').map(String) as NewExport['datasets'],
      // Every app ticked: every tracked app, those added later included.
      ...(chosenApps.size < apps.length && { appIds: [...chosenApps] }),
      from: String(data.get('from') ?? ''),
      to: String(data.get('to') ?? ''),
      format: String(data.get('format') ?? 'parquet') as NewExport['format'],
    };
    await run(async () => {
      const asked = await trpc.exports.create.mutate(input);
      toast.success(
        `Export asked for: ${formatCount(asked.progress.rowsEstimated, 'row')}, ${formatCount(asked.credits, 'credit')}`,
      );
    });
  }

  return (
    <>
      <section className="panel" aria-labelledby="exports-heading">
        <h1 id="exports-heading">Exports</h1>
        <p className="muted">
          A year or two of your apps’ data in one request, as files for a warehouse or a notebook. An export is written
          in the background; its files download for {limits.fileDays} days. It costs a credit a{' '}
          {formatNumber(limits.rowsPerCredit)} rows{livemode ? '' : ' (nothing in test mode)'}, given back if it fails
          or is cancelled. The API does the same: <code>POST /exports</code>.
        </p>
        <form className="stack" onSubmit={onSubmit} aria-label="New export">
          <fieldset>
            <legend>Datasets</legend>
            <div className="event-kinds">
              {datasets.map((dataset) => (
                <div key={dataset.name} className="event-kind">
                  <input
                    type="checkbox"
                    name="datasets"
                    value={dataset.name}
                    id={`dataset-${dataset.name}`}
                    defaultChecked={dataset.name === 'keyword_ranks'}
                    aria-describedby={`dataset-${dataset.name}-about`}
                  />
                  <span>
                    <label htmlFor={`dataset-${dataset.name}`}>{datasetLabel(dataset.name)}</label>
                    <span className="muted" id={`dataset-${dataset.name}-about`}>
                      {' '}
                      {/* The API's descriptions mark names as code (`competitors`): here, plain words. */}
                      {dataset.description.replaceAll('`', '')}
                    </span>
                  </span>
                </div>
              ))}
            </div>
          </fieldset>
          {apps.length > 1 && (
            <fieldset>
              <legend>Apps</legend>
              {apps.map((app) => (
                <label key={app.id} className="inline">
                  <input
                    type="checkbox"
                    checked={chosenApps.has(app.id)}
                    onChange={(event) => {
                      const next = new Set(chosenApps);
                      if (event.target.checked) next.add(app.id);
                      else next.delete(app.id);
                      setChosenApps(next);
                    }}
                  />
                  <span>
                    {app.name} <span className="muted">· {formatStore(app.store)}</span>
                  </span>
                </label>
              ))}
            </fieldset>
          )}
          <div className="row">
            <label>
              From
              <input type="date" name="from" required max={today} defaultValue={daysBefore(today, 364)} />
            </label>
            <label>
              To
              <input type="date" name="to" required max={today} defaultValue={today} />
            </label>
            <label>
              Format
              <select name="format" defaultValue="parquet">
                {FORMATS.map((format) => (
                  <option key={format.value} value={format.value}>
                    {format.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
          <p className="muted">
            {FORMATS.map((format) => `${format.label}: ${format.about}`).join('; ')}. At most{' '}
            {formatCount(limits.maxDays, 'day')} in one export, in every storefront each app is tracked in.
          </p>
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <div>
            <button className="primary" type="submit" disabled={pending || chosenApps.size === 0}>
              Export
            </button>
          </div>
        </form>
      </section>

      <section className="panel" aria-labelledby="exports-list-heading">
        <h2 id="exports-list-heading">Your exports</h2>
        {exports.length === 0 ? (
          <p className="muted" data-testid="no-exports">
            No export yet.
          </p>
        ) : (
          <TableScroll label="Exports">
            <table data-testid="exports-table">
              <thead>
                <tr>
                  <th>Asked</th>
                  <th>What</th>
                  <th>State</th>
                  <th>Files</th>
                  <th>
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {exports.map((item) => (
                  <tr key={item.id} data-export={item.id} data-state={item.state}>
                    <td>{formatInstant(item.createdAt)}</td>
                    <td>
                      {item.datasets.map(datasetLabel).join(', ')}
                      <div className="muted">
                        {item.from} → {item.to} · {FORMATS.find((format) => format.value === item.format)?.label} ·{' '}
                        {formatCount(item.progress.rowsEstimated, 'row')} · {formatCount(item.credits, 'credit')}
                      </div>
                    </td>
                    <td>{stateOf(item)}</td>
                    <td>
                      {item.files.map((file) => (
                        <div key={file.id}>
                          <a href={file.url} download={`${file.dataset}.${item.format}`}>
                            {file.dataset}.{item.format}
                          </a>{' '}
                          <span className="muted">
                            {formatBytes(file.bytes)}, {formatCount(file.rows, 'row')}
                          </span>
                        </div>
                      ))}
                    </td>
                    <td>
                      {(item.state === 'queued' || item.state === 'running') && (
                        <ConfirmButton
                          label="Cancel"
                          ariaLabel={`Cancel the export asked ${formatInstant(item.createdAt)}`}
                          title="Cancel this export?"
                          consequence="What it wrote so far is dropped, and its credits are given back."
                          onConfirm={async () => {
                            await trpc.exports.cancel.mutate({ exportId: item.id });
                          }}
                          done="Export cancelled"
                        />
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </>
  );
}
