'use client';
// Settings → Security log: every change of access to the account, newest first, filtered by kind and by day, a page
// at a time, and exported as CSV (every entry the filter matches).
import { Fragment, useState, type FormEvent } from 'react';
import { downloadCsv } from '@/components/csv';
import { LongText } from '@/components/common/long-text';
import { TableScroll } from '@/components/common/table-scroll';
import { formatInstant } from '@/components/format';
import { trpc } from '@/components/trpc';
import { useReading } from '@/components/use-reading';
import { browserOf, eventSentence, fieldChanges } from './event-sentence';
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
        // `change` whole as recorded (JSON, for a machine); `summary` as the page says it.
        ['time', 'event', 'actor', 'ip_address', 'user_agent', 'target', 'change', 'request_id', 'summary'],
        entries.map((entry) => [
          entry.occurredAt,
          entry.kind,
          entry.actor,
          entry.ipAddress,
          entry.userAgent,
          entry.target?.label ?? '',
          entry.before || entry.after ? JSON.stringify({ before: entry.before, after: entry.after }) : '',
          entry.requestId,
          eventSentence(entry),
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
      <form
        className="row"
        onSubmit={onFilter}
        // A choice applies at once, as every filter of the dashboard does.
        onChange={(event) => event.currentTarget.requestSubmit()}
        aria-label="Filter the security log"
      >
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
                <th>What happened</th>
                <th>From</th>
                <th>
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {page.entries.map((entry) => {
                const changes = fieldChanges(entry);
                return (
                  <tr key={entry.id} data-kind={entry.kind}>
                    <td className="nowrap">{formatInstant(entry.occurredAt)}</td>
                    <td data-testid="event-sentence">
                      <LongText>{eventSentence(entry, changes)}</LongText>
                    </td>
                    <td>
                      {browserOf(entry.userAgent) ?? (entry.ipAddress ? 'Unknown client' : '—')}
                      {entry.ipAddress && <div className="muted mono">{entry.ipAddress}</div>}
                    </td>
                    <td>
                      <details className="event-details">
                        <summary>Details</summary>
                        <dl>
                          <dt>Event</dt>
                          <dd>
                            {entry.label} <span className="muted mono">{entry.kind}</span>
                          </dd>
                          <dt>By</dt>
                          <dd>{entry.actor}</dd>
                          {entry.target && (
                            <>
                              <dt>Concerning</dt>
                              <dd>{entry.target.label}</dd>
                            </>
                          )}
                          {changes.map((change) => (
                            <Fragment key={change.field}>
                              <dt>{change.field}</dt>
                              <dd>
                                {change.before !== undefined && change.after !== undefined
                                  ? `${change.before} → ${change.after}`
                                  : (change.after ?? `was ${change.before}`)}
                              </dd>
                            </Fragment>
                          ))}
                          {entry.userAgent && (
                            <>
                              <dt>User agent</dt>
                              <dd className="mono">{entry.userAgent}</dd>
                            </>
                          )}
                          {entry.requestId && (
                            <>
                              <dt>Request</dt>
                              <dd className="mono">{entry.requestId}</dd>
                            </>
                          )}
                        </dl>
                      </details>
                    </td>
                  </tr>
                );
              })}
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
