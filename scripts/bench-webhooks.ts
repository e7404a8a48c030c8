// The webhook case of `npm run bench`, against the running bench app and a `npm run worker` process:
// 1. a backlog of 1,000 events recorded at once: how fast the worker delivers them to a local receiver;
// 2. 1,000 `POST /apps/{id}/keywords` calls (each records a keyword.added event), first with no webhook endpoint,
//    then with one subscribed: the latency the subscription adds to the calls (delivery is not on their path), and
//    the lag from each event to its arrival at the receiver.
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';

export interface WebhookBench {
  events: number;
  backlogDeliveriesPerSecond: number;
  withoutEndpoint: { p50: number; p99: number; rps: number };
  withEndpoint: { p50: number; p99: number; rps: number };
  lagP50Ms: number;
  lagP99Ms: number;
  errors: number;
}

interface Options {
  base: string;
  accountId: string;
  databaseUrl: string;
  connections: number;
  events: number;
  log: (line: string) => void;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

export async function benchWebhooks(options: Options): Promise<WebhookBench> {
  const { db } = await import('../src/server/db');
  const { createApiKey } = await import('../src/server/services/api-keys/api-keys');
  const { recordEvents } = await import('../src/server/services/events/events');
  const { createWebhookEndpoint, deleteWebhookEndpoint } = await import('../src/server/services/webhooks/endpoints');
  const { exportToEnvironment } = await import('../src/server/core/config');
  const { log, events, accountId } = options;

  // An app of its own, without history (below).
  const app =
    (await db.trackedApp.findFirst({ where: { accountId, bundleId: 'com.bench.webhooks' } })) ??
    (await db.trackedApp.create({
      data: {
        accountId,
        store: 'app_store',
        storeId: '1000000001',
        bundleId: 'com.bench.webhooks',
        name: 'Bench Webhooks',
        developer: 'Bench',
        category: 'Utilities',
        primaryCountry: 'US',
      },
    }));
  await db.trackedKeyword.deleteMany({ where: { appId: app.id } });

  const arrivals: { at: number; occurredAt: number }[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      arrivals.push({ at: Date.now(), occurredAt: Date.parse((JSON.parse(body) as { createdAt: string }).createdAt) });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;

  const worker = spawn(process.execPath, ['dist/worker.mjs'], {
    env: { ...process.env, DATABASE_URL: options.databaseUrl, WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    worker.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('webhook deliveries running')) resolve();
    });
    worker.once('exit', (code) => reject(new Error(`the worker exited (${code}) before it was ready:\n${output}`)));
  });

  // The worker catches up on the daily refresh as it starts; once that is done, the bench app goes back to having
  // no history, so that adding a keyword costs the insert and its event rather than a 180-day backfill.
  const { hotQuery } = await import('../src/server/db');
  const { OBSERVE_QUEUES, REFRESH_QUEUE } = await import('../src/server/services/ingest/scheduler');
  for (;;) {
    const queues = [REFRESH_QUEUE, ...Object.values(OBSERVE_QUEUES)];
    const [pending] = await hotQuery<{ n: number }>(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = ANY($1) AND state IN ('created', 'retry', 'active') AND start_after <= now()`,
      [queues],
    );
    if (!pending?.n) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await db.trackedApp.update({ where: { id: app.id }, data: { refreshedThrough: null } });

  const waitForArrivals = async (count: number, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (arrivals.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${arrivals.length} of ${count} deliveries arrived`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  exportToEnvironment({ WEBHOOKS_ALLOW_HTTP_LOCALHOST: 'true' });
  const { endpoint } = await createWebhookEndpoint(accountId, {
    url: receiverUrl,
    eventTypes: ['keyword.added'],
    description: 'bench receiver',
  });
  try {
    // 1. Backlog.
    const recordedAt = Date.now();
    await recordEvents(
      Array.from({ length: events }, (_, index) => ({
        accountId,
        appId: app.id,
        type: 'keyword.added' as const,
        data: { appId: app.id, keywordId: randomUUID(), term: `backlog ${index}`, country: 'US' },
      })),
    );
    await waitForArrivals(events, 180_000);
    const backlogDeliveriesPerSecond = events / ((arrivals.at(-1)!.at - recordedAt) / 1000);
    log(`webhooks: backlog of ${events} delivered at ${Math.round(backlogDeliveriesPerSecond)}/s`);

    // 2. The calls that cause events, without and then with a subscribed endpoint.
    let counter = 0;
    const calls = async (label: string, amount = events) => {
      const secret = (await createApiKey({ accountId }, { name: `bench webhooks ${label}`, scope: 'read-write' }))
        .secret;
      const result = await autocannon({
        url: `${options.base}/api/public/v1/apps/${app.id}/keywords`,
        connections: options.connections,
        amount,
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, 'Content-Type': 'application/json' },
        requests: [
          {
            setupRequest: (request) => ({
              ...request,
              body: JSON.stringify({ terms: [`bench ${label} ${counter++}`] }),
            }),
          },
        ],
      });
      return {
        p50: result.latency.p50,
        p99: result.latency.p99,
        rps: result.requests.average,
        errors: result.non2xx + result.errors,
      };
    };
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: false } });
    await calls('warm-up', 200);
    const withoutEndpoint = await calls('unsubscribed');
    // Their events fan out (to no endpoint) before the endpoint is enabled again.
    while (await db.domainEvent.count({ where: { accountId, dispatchedAt: null } }))
      await new Promise((resolve) => setTimeout(resolve, 100));
    await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { enabled: true } });
    arrivals.length = 0;
    const withEndpoint = await calls('subscribed');
    await waitForArrivals(events, 180_000);
    const lags = arrivals.map((arrival) => arrival.at - arrival.occurredAt);
    log(
      `webhooks: POST /apps/{id}/keywords p50 ${withoutEndpoint.p50} → ${withEndpoint.p50} ms with a subscribed endpoint`,
    );
    return {
      events,
      backlogDeliveriesPerSecond,
      withoutEndpoint: { p50: withoutEndpoint.p50, p99: withoutEndpoint.p99, rps: withoutEndpoint.rps },
      withEndpoint: { p50: withEndpoint.p50, p99: withEndpoint.p99, rps: withEndpoint.rps },
      lagP50Ms: percentile(lags, 50),
      lagP99Ms: percentile(lags, 99),
      errors: withoutEndpoint.errors + withEndpoint.errors,
    };
  } finally {
    await deleteWebhookEndpoint(accountId, endpoint.id);
    await db.trackedKeyword.deleteMany({ where: { appId: app.id } });
    await new Promise((resolve) => {
      worker.once('exit', resolve);
      process.kill(-worker.pid!, 'SIGTERM');
    });
    await new Promise((resolve) => receiver.close(resolve));
  }
}
