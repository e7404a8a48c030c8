'use client';
// Settings → Security log: every change of access to the account, newest first, filtered by kind and by day, a page
// at a time, and exported as CSV (every entry the filter matches).
import { useState, type FormEvent } from 'react';
import { downloadCsv } from '@/components/csv';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useReading } from '@/components/use-reading';
import type { SecurityEventView } from '@/server/services/security-log/security-log';

interface Page {
  total: number;
  page: number;
  pageSize: number;
  entries: SecurityEventView[];
}

interface Filter {
  kind: string;
  from: string;
  to: string;
}

interface Props {
  initial: Page;
  kinds: { kind: string; label: string }[];
  retentionDays: number;
  /** False in test mode: the page then shows the sandbox's log. */
  livemode: boolean;
}

/** A change as a short line: each field that changed, before → after (or its value when added or removed). */
function describeChange(entry: SecurityEventView): string {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  const show = (value: unknown) =>
    value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value);
  return fields
    .map((field) =>
      field in before && field in after
        ? `${field}: ${show(before[field])} → ${show(after[field])}`
        : `${field}: ${show(after[field] ?? before[field])}`,
    )
    .join('; ');
}

function query(filter: Filter) {
  return {
    ...(filter.kind && { kinds: [filter.kind as never] }),
    ...(filter.from && { from: filter.from }),
    ...(filter.to && { to: filter.to }),
  };
}

export function SecurityLogPanel({ initial, kinds, retentionDays, livemode }: Props) {
  const [page, setPage] = useState<Page>(initial);
  const [filter, setFilter] = useState<Filter>({ kind: '', from: '', to: '' });
  const { run: reading, pending, error } = useReading();
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));

  function load(next: Filter, pageNumber: number) {
    return reading(async () => {
      setPage(await trpc.securityLog.list.query({ ...query(next), page: pageNumber }));
      setFilter(next);
    });
  }

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void load(
      { kind: String(form.get('kind') ?? ''), from: String(form.get('from') ?? ''), to: String(form.get('to') ?? '') },
      1,
    );
  }

  function onExport() {
    return reading(async () => {
      const entries = await trpc.securityLog.export.query(query(filter));
      downloadCsv(
        `security-log-${new Date().toISOString().slice(0, 10)}.csv`,
        ['time', 'event', 'actor', 'ip_address', 'user_agent', 'target', 'change', 'request_id'],
        entries.map((entry) => [
          entry.occurredAt,
          entry.kind,
          entry.actor,
          entry.ipAddress,
          entry.userAgent,
          entry.target?.label ?? '',
          describeChange(entry),
          entry.requestId,
        ]),
      );
    });
  }

  return (
    <section className="panel" aria-labelledby="security-log-heading">
      <h1 id="security-log-heading">Security log</h1>
      <p className="muted">
        Every change of access to this account: API keys, webhook endpoints, the plan, sign-ins and sessions, with who
        made it and from where. Entries cannot be edited or deleted, and are kept {retentionDays} days.
      </p>
      {!livemode && (
        <p className="notice" data-testid="security-log-test-mode">
          Test mode’s log: changes to your test keys and test webhook endpoints. Sign-ins, sessions, the plan and live
          keys are in the live log, with Test mode off.
        </p>
      )}
      <form className="row" onSubmit={onFilter} aria-label="Filter the security log">
        <label>
          Event
          <select name="kind" defaultValue="">
            <option value="">All events</option>
            {kinds.map((kind) => (
              <option key={kind.kind} value={kind.kind}>
                {kind.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          From
          <input type="date" name="from" />
        </label>
        <label>
          To
          <input type="date" name="to" />
        </label>
        <button type="submit" disabled={pending}>
          Filter
        </button>
        <button
          type="button"
          onClick={() => void onExport()}
          disabled={pending || page.total === 0}
          data-testid="security-log-export"
        >
          Export CSV
        </button>
      </form>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <p className="muted" aria-live="polite" data-testid="security-log-count">
        {page.total} {page.total === 1 ? 'entry' : 'entries'}
        {page.total > page.pageSize ? `; page ${page.page} of ${pages}` : ''}.
      </p>
      {page.entries.length === 0 ? (
        <p className="empty">No entry matches.</p>
      ) : (
        <TableScroll label="Security log">
          <table data-testid="security-log-table">
            <thead>
              <tr>
                <th>Time</th>
                <th>Event</th>
                <th>Who</th>
                <th>From</th>
                <th>What</th>
                <th>Change</th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => (
                <tr key={entry.id} data-kind={entry.kind}>
                  <td>{formatInstant(entry.occurredAt)}</td>
                  <td>{entry.label}</td>
                  <td>{entry.actor}</td>
                  <td>
                    {entry.ipAddress ?? '—'}
                    {entry.userAgent && <div className="muted">{entry.userAgent.slice(0, 80)}</div>}
                  </td>
                  <td>{entry.target?.label ?? '—'}</td>
                  <td>{describeChange(entry) || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {pages > 1 && (
        <nav className="row" aria-label="Security log pages">
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
