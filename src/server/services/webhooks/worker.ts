// Runs deliveries through pg-boss, outside the request path (in the launcher process): a loop fans new domain
// events out every second, each attempt is a job, and each retry is a job scheduled after its delay. pg-boss gives
// a job to one worker at a time, across processes sharing the database; jobs survive restarts. A sweep re-queues
// any delivery whose next attempt is overdue (a process that died between recording an attempt and queueing the
// next); duplicate jobs for one attempt are skipped by attemptDelivery.
import type PgBoss from 'pg-boss';
import { db } from '@/server/db';
import { takeRequestedDeliveries } from '@/server/db/webhook-statements';
import { logError } from '@/server/core/log';
import { attemptDelivery, dispatchEvents, TIMEOUT_MS } from './delivery';
import { config } from '@/server/core/config';

export const ATTEMPT_QUEUE = 'webhook-attempt';
const OVERDUE_MS = 120_000;
/** How long an attempt's job may stay active: three times the longest an attempt takes (TIMEOUT_MS). */
const ATTEMPT_EXPIRE_SECONDS = (3 * TIMEOUT_MS) / 1000;

interface AttemptJob {
  deliveryId: string;
  attempt: number;
}

/** One statement for many jobs (the queue's retry and expiry settings apply). */
async function queueAttempts(boss: PgBoss, jobs: AttemptJob[]): Promise<void> {
  if (jobs.length) await boss.insert(jobs.map((data) => ({ name: ATTEMPT_QUEUE, data })));
}

/** Events one fan-out takes. */
const DISPATCH_BATCH = 500;
/** Attempts one worker fetches at once and runs concurrently. */
const BATCH_SIZE = 20;

export async function queueOverdueDeliveries(boss: PgBoss, now = new Date()): Promise<number> {
  const overdue = await db.webhookDelivery.findMany({
    where: {
      status: 'pending',
      OR: [
        { nextAttemptAt: { lt: new Date(now.getTime() - OVERDUE_MS) } },
        { attempts: 0, createdAt: { lt: new Date(now.getTime() - OVERDUE_MS) } },
      ],
    },
    select: { id: true, attempts: true },
    take: 500,
  });
  await queueAttempts(
    boss,
    overdue.map((delivery) => ({ deliveryId: delivery.id, attempt: delivery.attempts + 1 })),
  );
  return overdue.length;
}

/** Test events and redeliveries asked for from the dashboard: queued at once, each request once. */
async function queueRequestedDeliveries(boss: PgBoss): Promise<number> {
  const requested = await takeRequestedDeliveries();
  await queueAttempts(
    boss,
    requested.map((delivery) => ({ deliveryId: delivery.id, attempt: delivery.attempts + 1 })),
  );
  return requested.length;
}

export async function startWebhookWorker(
  boss: PgBoss,
  options: { intervalMs?: number } = {},
): Promise<() => Promise<void>> {
  // pg-boss retries a job only when its worker died or threw: the schedule of attempts is ours. An attempt takes at
  // most TIMEOUT_MS and its writes, so a job still active after ATTEMPT_EXPIRE_SECONDS belongs to a process that died:
  // it runs again (attemptDelivery skips an attempt that was recorded), once the queue's maintenance has seen it.
  const attempts = { name: ATTEMPT_QUEUE, retryLimit: 3, retryDelay: 5, expireInSeconds: ATTEMPT_EXPIRE_SECONDS };
  if (await boss.getQueue(ATTEMPT_QUEUE)) await boss.updateQueue(ATTEMPT_QUEUE, attempts);
  else await boss.createQueue(ATTEMPT_QUEUE, attempts);
  // pg-boss waits a polling interval after every fetch; after a full batch the worker asks to fetch again at once,
  // so a backlog drains at the speed of the receivers, not of the polling.
  const workerId: string = await boss.work<AttemptJob>(
    ATTEMPT_QUEUE,
    { batchSize: BATCH_SIZE, pollingIntervalSeconds: config().JOB_POLL_SECONDS ?? 1 },
    async (jobs) => {
      const settled = await Promise.allSettled(
        jobs.map(async (job) => {
          const outcome = await attemptDelivery(job.data.deliveryId, job.data.attempt);
          if (outcome.status === 'retry') {
            await boss.send(
              ATTEMPT_QUEUE,
              { deliveryId: job.data.deliveryId, attempt: outcome.attempt + 1 } satisfies AttemptJob,
              { startAfter: outcome.delaySeconds },
            );
          }
        }),
      );
      if (jobs.length === BATCH_SIZE) boss.notifyWorker(workerId);
      // pg-boss then retries the batch; attempts already made are skipped by attemptDelivery.
      const failed = settled.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
    },
  );
  let running = false;
  let sweeps = 0;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      // A full fan-out (500 events) means more are waiting: go on at once.
      for (let more = true; more; ) {
        const deliveries = await dispatchEvents(DISPATCH_BATCH);
        await queueAttempts(
          boss,
          deliveries.deliveryIds.map((deliveryId) => ({ deliveryId, attempt: 1 })),
        );
        more = deliveries.events === DISPATCH_BATCH;
      }
      await queueRequestedDeliveries(boss);
      if (sweeps++ % 60 === 0) await queueOverdueDeliveries(boss);
    } catch (error) {
      logError('webhook dispatch failed', error);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs ?? 1_000);
  // Stopping lets a fan-out in progress finish (its deliveries are queued, not left half-queued).
  return async () => {
    clearInterval(timer);
    while (running) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
