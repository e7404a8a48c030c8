// Runs exports in the background work, never on a request's path (issue 68): one at a time per process, each taken
// with a claim that the worker renews as it goes; a claim left to go stale belongs to a worker that died, and the
// export is taken again and written from its first file (what the dead worker wrote is removed first, and a file is
// whole only once marked so: never a duplicate nor a half file). Memory holds a batch of rows and a chunk of bytes.
// Cancellation is looked at between batches. The end is an `export.completed` or `export.failed` event; a failed or
// cancelled export's credits are given back. Files past their expiry are removed by the same loop.
import { randomUUID } from 'node:crypto';
import { db } from '@/server/db';
import { claimNextExport } from '@/server/db/export-statements';
import { config } from '@/server/core/config';
import { logError } from '@/server/core/log';
import { recordEvents } from '@/server/services/events/events';
import { DATASET_DEFINITIONS } from './datasets';
import { fileSink, newFileStorage, removeFiles } from './export-storage';
import { exportToRun, giveCreditsBack } from './exports';
import { exportFileName, FORMAT_MEDIA_TYPES, tableWriter } from './file-writers';
import { startPollingLoop } from '@/server/core/polling-loop';

/** A claim not renewed for this long belongs to a worker that died (EXPORT_CLAIM_SECONDS). */
const claimMs = () => (config().EXPORT_CLAIM_SECONDS ?? 60) * 1000;
/** A run that failed this many times is failed for good. */
const MAX_ATTEMPTS = 3;

class Cancelled extends Error {}
/** The process is stopping: the export is left for another worker (or this one's next start), from its first file. */
class Stopped extends Error {}
/** Another worker took the export, this one's claim having gone stale (a long pause): this run's work is dropped. */
class ClaimLost extends Error {}

/**
 * A run's hold on its export. The attempt it was claimed as fences every write it makes: a worker that was taken for
 * dead but is not (a pause longer than the claim) finds its attempt superseded at its next write and stops, leaving the
 * export to the worker that took it.
 */
interface Claim {
  id: string;
  attempts: number;
}

const held = (claim: Claim) => ({ id: claim.id, state: 'running' as const, attempts: claim.attempts });

/**
 * Runs the next export there is, if any; whether one was run. `stopping`: whether to give it up between batches;
 * `accountId`: one account's exports only (a test's, beside other tests' accounts).
 */
export async function runNextExport(
  now = new Date(),
  stopping: () => boolean = () => false,
  accountId: string | null = null,
): Promise<boolean> {
  const claim = await claimNextExport(new Date(now.getTime() - claimMs()), accountId);
  if (!claim) return false;
  try {
    await runExport(claim, stopping);
  } catch (error) {
    if (error instanceof ClaimLost) return true;
    if (error instanceof Cancelled) await endCancelled(claim);
    else if (error instanceof Stopped)
      await db.export.updateMany({
        where: held(claim),
        data: { state: 'queued', claimedAt: null, attempts: { decrement: 1 } },
      });
    else if (claim.attempts >= MAX_ATTEMPTS) await endFailed(claim, error);
    else {
      logError('an export failed; it is taken again', error, { exportId: claim.id });
      await db.export.updateMany({ where: held(claim), data: { state: 'queued', claimedAt: null } });
    }
  }
  return true;
}

/** Why a fenced write changed nothing: the export was cancelled, or another worker holds it now. */
async function lostWhy(claim: Claim): Promise<Error> {
  const row = await db.export.findUnique({
    where: { id: claim.id },
    select: { attempts: true, cancelRequested: true },
  });
  return row && row.attempts === claim.attempts && row.cancelRequested ? new Cancelled() : new ClaimLost();
}

async function runExport(claim: Claim, stopping: () => boolean): Promise<void> {
  const { id } = claim;
  // What a worker that died wrote is not kept: the export is written again from its first file.
  await removeFiles({ exportId: id });
  const job = await exportToRun(id);
  let rowsDone = 0;
  let beat = Date.now();
  const heartbeat = async (force = false) => {
    if (stopping()) throw new Stopped();
    if (!force && Date.now() - beat < claimMs() / 12) return;
    beat = Date.now();
    const { count } = await db.export.updateMany({
      where: { ...held(claim), cancelRequested: false },
      data: { claimedAt: new Date(), rowsDone: BigInt(rowsDone) },
    });
    if (!count) throw await lostWhy(claim);
  };
  await heartbeat(true);
  const written: string[] = [];
  for (const dataset of job.datasets) {
    const definition = DATASET_DEFINITIONS[dataset];
    const fileId = randomUUID();
    const file = await db.exportFile.create({
      data: { id: fileId, exportId: id, dataset, ...newFileStorage(id, fileId, exportFileName(dataset, job.format)) },
      select: { id: true, storage: true, storageKey: true },
    });
    written.push(file.id);
    const sink = fileSink(file, FORMAT_MEDIA_TYPES[job.format]);
    const writer = tableWriter(job.format, definition.columns, sink, {
      dataset,
      description: definition.description,
    });
    let result: Awaited<ReturnType<typeof writer.finish>>;
    try {
      for (const app of job.apps) {
        for await (const batch of definition.rows(app, job.window)) {
          await writer.writeRows(batch);
          rowsDone += batch.length;
          await heartbeat();
        }
      }
      result = await writer.finish();
      await sink.close();
    } catch (error) {
      await sink.abort().catch((aborting: unknown) => logError('an export file could not be dropped', aborting));
      throw error;
    }
    await db.exportFile.update({
      where: { id: file.id },
      data: {
        rows: BigInt(result.rows),
        bytes: BigInt(result.bytes),
        sha256: result.sha256,
        completedAt: new Date(),
      },
    });
    await heartbeat(true);
  }
  // Only this run's files: one a dataset, whatever a worker taken for dead left behind.
  await removeFiles({ exportId: id, id: { notIn: written } });
  const now = new Date();
  await db.$transaction(async (tx) => {
    const { count } = await tx.export.updateMany({
      where: { ...held(claim), cancelRequested: false },
      data: { state: 'completed', completedAt: now, rowsDone: BigInt(rowsDone), claimedAt: null, error: null },
    });
    if (!count) throw await lostWhy(claim);
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

async function endCancelled(claim: Claim): Promise<void> {
  const { count } = await db.export.updateMany({
    where: held(claim),
    data: { state: 'cancelled', completedAt: new Date(), claimedAt: null, error: 'Cancelled while it ran.' },
  });
  if (!count) return;
  await removeFiles({ exportId: claim.id });
  await giveCreditsBack(claim.id);
}

async function endFailed(claim: Claim, error: unknown): Promise<void> {
  const { id } = claim;
  logError('an export failed for good', error, { exportId: id });
  const detail = 'The export could not be written; nothing was charged. Ask for it again, or write to support.';
  const { count } = await db.export.updateMany({
    where: held(claim),
    data: { state: 'failed', completedAt: new Date(), claimedAt: null, error: detail },
  });
  if (!count) return;
  await removeFiles({ exportId: id });
  const row = await db.export.findUniqueOrThrow({ where: { id }, select: { accountId: true, format: true } });
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
  const count = await removeFiles({ export: { expiresAt: { lt: now } } });
  await db.export.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 30 * 86_400_000) } } });
  return count;
}

/** Runs exports every `intervalMs` in the background work; stopping gives the one in progress up at its next batch. */
export function startExportWorker({ intervalMs = 1000 }: { intervalMs?: number } = {}): () => Promise<void> {
  let passes = 0;
  return startPollingLoop(
    async (stopping) => {
      while (!stopping() && (await runNextExport(new Date(), stopping))) {
        // another may be waiting
      }
      if (passes++ % 3600 === 0) await removeExpiredExports();
    },
    { intervalMs, failure: 'the export worker could not take its exports' },
  );
}
