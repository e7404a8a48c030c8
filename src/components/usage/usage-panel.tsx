// Settings → API access: this month's credits, read through the same procedure as GET /usage.
import { formatInstant, formatNumber } from '@/components/format';
import type { usageOutput } from '@/server/api/routers/usage/usage.schema';
import type { z } from 'zod';
import { TableScroll } from '@/components/common/table-scroll';
import { UsageExplorer } from './usage-explorer';

/** `ledgerDays`: how far back the usage chart may reach (the server's bound). */
export function UsagePanel({ usage, ledgerDays }: { usage: z.infer<typeof usageOutput>; ledgerDays: number }) {
  const share = usage.limit ? Math.min(1, usage.used / usage.limit) : 0;
  return (
    <section className="panel" data-testid="usage-panel">
      <h2>Credits this month</h2>
      <div className="stats">
        <div>
          <div className="muted">Used</div>
          <div className="stat" data-testid="usage-used">
            {formatNumber(usage.used)}
          </div>
        </div>
        <div>
          <div className="muted">Remaining</div>
          <div className="stat" data-testid="usage-remaining">
            {usage.remaining === null ? 'Unlimited' : formatNumber(usage.remaining)}
          </div>
        </div>
        <div>
          <div className="muted">Resets</div>
          <div className="stat" data-testid="usage-reset" style={{ fontSize: '1.1rem', paddingTop: '0.4rem' }}>
            {formatInstant(usage.periodEnd)}
          </div>
        </div>
      </div>
      {usage.limit !== null && (
        <div style={{ margin: '1rem 0' }}>
          <div
            role="progressbar"
            aria-label="Credits used"
            aria-valuemin={0}
            aria-valuemax={usage.limit}
            aria-valuenow={usage.used}
            style={{ height: 12, background: '#e9ecef', borderRadius: 6, overflow: 'hidden' }}
          >
            <div
              style={{
                width: `${share * 100}%`,
                height: '100%',
                background: share >= 1 ? 'var(--danger)' : share >= 0.8 ? 'var(--warn)' : 'var(--accent)',
              }}
            />
          </div>
          <p className="muted" data-testid="usage-bar-label">
            {formatNumber(usage.used)} of {formatNumber(usage.limit)} credits used ({Math.round(share * 100)} %). Up to{' '}
            {formatNumber(usage.requestsPerMinute)} requests per minute per key.
          </p>
        </div>
      )}
      <h3>Per day</h3>
      <UsageExplorer
        periodStart={usage.periodStart}
        today={usage.daily.at(-1)?.date ?? usage.periodStart.slice(0, 10)}
        ledgerDays={ledgerDays}
      />
      <div className="row" style={{ alignItems: 'flex-start', gap: '2rem' }}>
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          <h3>By endpoint</h3>
          {usage.byEndpoint.length === 0 ? (
            <p className="muted">No charged calls this month.</p>
          ) : (
            <TableScroll label="Usage by endpoint">
              <table data-testid="usage-by-endpoint">
                <thead>
                  <tr>
                    <th>Endpoint</th>
                    <th>Calls</th>
                    <th>Credits</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.byEndpoint.map((row) => (
                    <tr key={row.endpoint}>
                      <td className="mono">{row.endpoint}</td>
                      <td>{formatNumber(row.calls)}</td>
                      <td>{formatNumber(row.credits)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </div>
        <div style={{ flex: '1 1 280px', minWidth: 0 }}>
          <h3>By key and connected app</h3>
          {usage.byKey.length === 0 ? (
            <p className="muted">No charged calls this month.</p>
          ) : (
            <TableScroll label="Usage by key and connected app">
              <table data-testid="usage-by-key">
                <thead>
                  <tr>
                    <th>Key or app</th>
                    <th>Calls</th>
                    <th>Credits</th>
                  </tr>
                </thead>
                <tbody>
                  {usage.byKey.map((row) => (
                    <tr key={row.keyId ?? 'session'}>
                      <td>
                        {row.name} {row.key && <span className="muted mono">{row.key}</span>}
                        {row.kind === 'connected_app' && <span className="muted"> (connected app)</span>}
                      </td>
                      <td>{formatNumber(row.calls)}</td>
                      <td>{formatNumber(row.credits)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </div>
      </div>
    </section>
  );
}
