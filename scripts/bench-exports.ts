// The export case of `npm run bench` (issue 68): the bench app's 1,000 tracked keywords, keyword ranks and keyword
// metrics over 500 days, a million rows, written as Parquet by the export worker's own code in a process of its own,
// so that its peak memory (RSS) is the export's. The same export of a tenth of the rows (50 days) is measured in the
// same run, as its baseline: memory that stays bounded grows about as much for ten times the rows, and the rows per
// second compare the two sizes on the machine of the moment.
import { randomUUID } from 'node:crypto';
import { measuredInChild } from './bench-child';

export interface ExportMeasurement {
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  /** The process's RSS once its modules were loaded, before the export: what any worker holds. */
  rssBeforeMb: number;
  /** The process's peak RSS over the export (getrusage's maxrss). */
  peakRssMb: number;
}

export interface ExportBench {
  million: ExportMeasurement;
  tenth: ExportMeasurement;
}

const DATASETS = ['keyword_ranks', 'keyword_metrics'];

/** One export of `days` days ending yesterday, written in a child process on the bench's database. */
const measureInChild = (databaseUrl: string, accountId: string, days: number) =>
  measuredInChild<ExportMeasurement>('scripts/bench-exports.ts', [], {
    DATABASE_URL: databaseUrl,
    BENCH_EXPORT_ACCOUNT: accountId,
    BENCH_EXPORT_DAYS: `${days}`,
  });

export async function benchExports(options: {
  databaseUrl: string;
  accountId: string;
  log: (line: string) => void;
}): Promise<ExportBench> {
  options.log('exports: 100,000 rows, then 1,000,000 rows, as Parquet');
  const tenth = await measureInChild(options.databaseUrl, options.accountId, 50);
  const million = await measureInChild(options.databaseUrl, options.accountId, 500);
  return { million, tenth };
}

async function child(): Promise<void> {
  const { db, disconnectDb } = await import('../src/server/db');
  const { createExport } = await import('../src/server/services/exports/exports');
  const { runNextExport } = await import('../src/server/services/exports/export-worker');
  const accountId = process.env.BENCH_EXPORT_ACCOUNT!;
  const days = Number(process.env.BENCH_EXPORT_DAYS);
  const day = (offset: number) => new Date(Date.now() - offset * 86_400_000).toISOString().slice(0, 10);
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const asked = await createExport(
    { accountId, mode: 'live', plan: 'enterprise', creditLimit: null },
    { datasets: DATASETS as never, from: day(days), to: day(1), format: 'parquet' },
    randomUUID(),
    new Date(),
  );
  while (await runNextExport(new Date(), () => false, accountId)) {
    // until the account has no export left to run
  }
  const seconds = (performance.now() - started) / 1000;
  const done = await db.export.findUniqueOrThrow({
    where: { id: asked.id },
    select: { state: true, rowsDone: true, files: { select: { bytes: true } } },
  });
  if (done.state !== 'completed') throw new Error(`the export ended ${done.state}`);
  // The bench's database keeps what the next run needs, not a million rows of files.
  await db.export.delete({ where: { id: asked.id } });
  await disconnectDb();
  const rows = Number(done.rowsDone);
  const measurement: ExportMeasurement = {
    rows,
    bytes: done.files.reduce((sum, file) => sum + Number(file.bytes), 0),
    seconds,
    rowsPerSecond: rows / seconds,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  process.stdout.write(JSON.stringify(measurement));
}

if (process.argv.includes('--child')) await child();
