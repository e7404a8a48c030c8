// GET /metrics: the app server's Prometheus metrics (src/server/core/metrics.ts) for a scraper that sends
// METRICS_TOKEN as its Bearer token. Without METRICS_TOKEN the path is not served (the app's 404), so the metrics are
// never public by default. What happens outside this process is read from the database when scraped: the pool of this
// process, the webhook deliveries and the refresh runs of every process.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Gauge } from 'prom-client';
import { config } from '@/server/core/config';
import { logErrorThrottled } from '@/server/core/log';
import { metricsRegistry } from '@/server/core/metrics';
import { runTurnEndTasks } from '@/server/core/turn-end';
import { poolStatistics } from '@/server/db';
import { deliveryStatistics, jobRunStatistics } from '@/server/db/webhook-statements';
import { OBSERVE_QUEUES } from '@/server/services/ingest/scheduler';

export const METRICS_PATH = '/metrics';

/** Runs a collection that reads the database; a failed one leaves its gauge empty rather than the scrape failed. */
async function fromDatabase(what: string, collect: () => Promise<void>): Promise<void> {
  try {
    await collect();
  } catch (error) {
    logErrorThrottled(`metrics ${what}`, 60_000, `metrics: ${what} could not be read`, error);
  }
}

let gaugesRegistered = false;

function registerScrapedGauges(): void {
  if (gaugesRegistered) return;
  gaugesRegistered = true;
  new Gauge({
    name: 'aso_db_pool_connections',
    help: 'This process’s database pool: its size, its open and idle connections, and the queries waiting for one.',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    collect() {
      const pool = poolStatistics();
      if (!pool) return;
      this.set({ state: 'size' }, pool.size);
      this.set({ state: 'open' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  const deliveries = new Gauge({
    name: 'aso_webhook_deliveries',
    help: 'Webhook deliveries created in the last 24 hours, by status (pending, succeeded, failed), over every process.',
    labelNames: ['status'] as const,
    registers: [metricsRegistry],
  });
  new Gauge({
    name: 'aso_webhook_delivery_lag_seconds',
    help: 'Time from an event to its successful delivery, over the deliveries of the last hour (quantile 0.5 and 0.99).',
    labelNames: ['quantile'] as const,
    registers: [metricsRegistry],
    async collect() {
      await fromDatabase('webhook deliveries', async () => {
        const statistics = await deliveryStatistics();
        deliveries.reset();
        for (const { status, count } of statistics.byStatus) deliveries.set({ status }, count);
        this.reset();
        if (statistics.lagSeconds.p50 !== null) this.set({ quantile: '0.5' }, statistics.lagSeconds.p50);
        if (statistics.lagSeconds.p99 !== null) this.set({ quantile: '0.99' }, statistics.lagSeconds.p99);
      });
    },
  });
  const runs = new Gauge({
    name: 'aso_refresh_runs',
    help: 'Refreshes of one app (a job of its store’s queue) finished in the last 24 hours, by state (completed, failed…).',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
  });
  new Gauge({
    name: 'aso_refresh_run_duration_seconds',
    help: 'Duration of the refreshes of one app finished in the last 24 hours: mean and longest.',
    labelNames: ['state', 'stat'] as const,
    registers: [metricsRegistry],
    async collect() {
      await fromDatabase('refresh runs', async () => {
        const rows = await jobRunStatistics(Object.values(OBSERVE_QUEUES));
        runs.reset();
        this.reset();
        for (const row of rows) {
          runs.set({ state: row.state }, row.count);
          if (row.mean_seconds !== null) this.set({ state: row.state, stat: 'mean' }, row.mean_seconds);
          if (row.max_seconds !== null) this.set({ state: row.state, stat: 'max' }, row.max_seconds);
        }
      });
    },
  });
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the request carries the metrics token (compared in constant time). */
function authorised(req: IncomingMessage, token: string): boolean {
  const sent = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return sent !== undefined && timingSafeEqual(digest(sent), digest(token));
}

/** Answers GET /metrics; false when METRICS_TOKEN is unset, and the request goes on as any other. */
export function serveMetrics(req: IncomingMessage, res: ServerResponse): boolean {
  const token = config().METRICS_TOKEN;
  if (!token) return false;
  if (!authorised(req, token)) {
    res.writeHead(401, {
      'Content-Type': 'text/plain',
      'WWW-Authenticate': 'Bearer realm="metrics"',
      'Cache-Control': 'no-store',
    });
    res.end('Send the metrics token as a Bearer token.\n');
    return true;
  }
  registerScrapedGauges();
  // The answers already sent whose metrics still wait for the end of the turn count in this scrape.
  runTurnEndTasks();
  metricsRegistry.metrics().then(
    (text) => {
      res.writeHead(200, { 'Content-Type': metricsRegistry.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : text);
    },
    (error: unknown) => {
      logErrorThrottled('metrics', 60_000, 'metrics could not be collected', error);
      res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end('The metrics could not be collected.\n');
    },
  );
  return true;
}
