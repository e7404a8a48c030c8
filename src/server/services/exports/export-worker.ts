// Runs exports in the background work, never on a request's path (issue 68): one at a time per process, each taken
// with a claim that the worker renews as it goes; a claim left to go stale belongs to a worker that died, and the
// export is taken again and written from its first file (what the dead worker wrote is removed first, and a file is
// whole only once marked so: never a duplicate nor a half file). Memory holds a batch of rows and a chunk of bytes.
// Cancellation is looked at between batches. The end is an `export.completed` or `export.failed` event; a failed or
// cancelled export's credits are given back. Files past their expiry are removed by the same loop.
import { db } from '@/server/db';
import { claimNextExport } from '@/server/db/export-statements';
import { logError } from '@/server/core/log';
import { recordEvents } from '@/server/services/events/events';
import { DATASET_DEFINITIONS } from './datasets';
import { databaseSink } from './export-storage';
import { exportToRun, giveCreditsBack } from './exports';
import { tableWriter } from './file-writers';

/** A claim not renewed for this long belongs to a worker that died. */
const STALE_CLAIM_MS = 60_000;
/** How often a running export renews its claim and writes its progress (at most). */
const HEARTBEAT_MS = 5_000;
/** A run that failed this many times is failed for good. */
const MAX_ATTEMPTS = 3;

class Cancelled extends Error {}
/** The process is stopping: the export is left for another worker (or this one's next start), from its first file. */
class Stopped extends Error {}

/**
 * Runs the next export there is, if any; whether one was run. `stopping`: whether to give it up between batches;
 * `accountId`: one account's exports only (a test's, beside other tests' accounts).
 */
export async function runNextExport(
  now = new Date(),
  stopping: () => boolean = () => false,
  accountId: string | null = null,
): Promise<boolean> {
  const claimed = await claimNextExport(new Date(now.getTime() - STALE_CLAIM_MS), accountId);
  if (!claimed) return false;
  try {
    await runExport(claimed.id, stopping);
  } catch (error) {
    if (error instanceof Cancelled) await endCancelled(claimed.id);
    else if (error instanceof Stopped)
      await db.export.updateMany({
        where: { id: claimed.id, state: 'running' },
        data: { state: 'queued', claimedAt: null, attempts: { decrement: 1 } },
      });
    else if (claimed.attempts >= MAX_ATTEMPTS) await endFailed(claimed.id, error);
    else {
      logError('an export failed; it is taken again', error, { exportId: claimed.id });
      await db.export.updateMany({
        where: { id: claimed.id, state: 'running' },
        data: { state: 'queued', claimedAt: null },
      });
    }
  }
  return true;
}

async function runExport(id: string, stopping: () => boolean): Promise<void> {
  // What a worker that died wrote is not kept: the export is written again from its first file.
  await db.exportFile.deleteMany({ where: { exportId: id } });
  await db.export.update({ where: { id }, data: { rowsDone: 0n } });
  const job = await exportToRun(id);
  let rowsDone = 0;
  let beat = Date.now();
  const heartbeat = async (force = false) => {
    if (stopping()) throw new Stopped();
    if (!force && Date.now() - beat < HEARTBEAT_MS) return;
    beat = Date.now();
    const { count } = await db.export.updateMany({
      where: { id, state: 'running', cancelRequested: false },
      data: { claimedAt: new Date(), rowsDone: BigInt(rowsDone) },
    });
    if (!count) throw new Cancelled();
  };
  for (const dataset of job.datasets) {
    const definition = DATASET_DEFINITIONS[dataset];
    const file = await db.exportFile.create({ data: { exportId: id, dataset }, select: { id: true } });
    const sink = databaseSink(file.id);
    const writer = tableWriter(job.format, definition.columns, sink, {
      dataset,
      description: definition.description,
    });
    for (const app of job.apps) {
      for await (const batch of definition.rows(app, job.window)) {
        await writer.writeRows(batch);
        rowsDone += batch.length;
        await heartbeat();
      }
    }
    const written = await writer.finish();
    await sink.close();
    await db.exportFile.update({
      where: { id: file.id },
      data: {
        rows: BigInt(written.rows),
        bytes: BigInt(written.bytes),
        sha256: written.sha256,
        completedAt: new Date(),
      },
    });
    await heartbeat(true);
  }
  const now = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.export.updateMany({
      where: { id, state: 'running', cancelRequested: false },
      data: { state: 'completed', completedAt: now, rowsDone: BigInt(rowsDone), claimedAt: null, error: null },
    });
    if (!count) throw new Cancelled();
    const files = await tx.exportFile.findMany({
      where: { exportId: id },
      orderBy: { dataset: 'asc' },
      select: { id: true, dataset: true, rows: true, bytes: true, sha256: true },
    });
    await recordEvents(
      [
        {
          accountId: job.accountId,
          type: 'export.completed',
          data: {
            exportId: id,
            format: job.format,
            rows: rowsDone,
            files: files.map((file) => ({
              fileId: file.id,
              dataset: file.dataset,
              rows: Number(file.rows),
              bytes: Number(file.bytes),
              sha256: file.sha256!,
            })),
          },
          requestId: null,
        },
      ],
      tx,
    );
  });
}

async function endCancelled(id: string): Promise<void> {
  await db.exportFile.deleteMany({ where: { exportId: id } });
  await db.export.updateMany({
    where: { id },
    data: { state: 'cancelled', completedAt: new Date(), claimedAt: null, error: 'Cancelled while it ran.' },
  });
  await giveCreditsBack(id);
}

async function endFailed(id: string, error: unknown): Promise<void> {
  logError('an export failed for good', error, { exportId: id });
  await db.exportFile.deleteMany({ where: { exportId: id } });
  const detail = 'The export could not be written; nothing was charged. Ask for it again, or write to support.';
  const row = await db.export.update({
    where: { id },
    data: { state: 'failed', completedAt: new Date(), claimedAt: null, error: detail },
    select: { accountId: true, format: true },
  });
  await recordEvents([
    {
      accountId: row.accountId,
      type: 'export.failed',
      data: { exportId: id, format: row.format as 'parquet' | 'csv' | 'jsonl', error: detail },
      requestId: null,
    },
  ]);
  await giveCreditsBack(id);
}

/** Removes the files of exports past their expiry (the rows of the exports stay, as their history, for 30 days more). */
export async function removeExpiredExports(now = new Date()): Promise<number> {
  const { count } = await db.exportFile.deleteMany({ where: { export: { expiresAt: { lt: now } } } });
  await db.export.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 30 * 86_400_000) } } });
  return count;
}

/** Runs exports every `intervalMs` in the background work; stopping gives the one in progress up at its next batch. */
export function startExportWorker({ intervalMs = 1000 }: { intervalMs?: number } = {}): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  let sweeps = 0;
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      try {
        while (!stopped && (await runNextExport(new Date(), () => stopped))) {
          // another may be waiting
        }
        if (sweeps++ % 3600 === 0) await removeExpiredExports();
      } catch (error) {
        logError('the export worker could not take its exports', error);
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
