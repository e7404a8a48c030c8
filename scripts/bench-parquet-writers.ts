// The Parquet writers issue 68 asked to measure before choosing, in `npm run bench` (`--only parquet`): the same
// million rows shaped as the keyword ranks dataset (a keyword's year at a time, 365 rows a batch), written by
//   - hyparquet-writer, through the exports' own writer (src/server/services/exports/file-writers.ts: row groups of
//     50,000, the bytes handed on after each), the one chosen;
//   - parquet-wasm (Rust's parquet crate in WebAssembly), fed apache-arrow record batches of 50,000 rows through its
//     streaming writer (transformParquetStream);
//   - DuckDB (@duckdb/node-api), rows appended to a table, then COPY … TO a Parquet file.
// Each in a process of its own, so that its peak memory (RSS) is its own: time, rows per second, peak RSS over the
// process's RSS before writing, and the file's size. The rows are made in memory (no database): the writers alone.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { measuredInChild } from './bench-child';

export const WRITERS = ['hyparquet-writer', 'parquet-wasm', 'duckdb'] as const;
type Writer = (typeof WRITERS)[number];

export interface WriterMeasurement {
  writer: Writer;
  rows: number;
  seconds: number;
  rowsPerSecond: number;
  rssBeforeMb: number;
  peakRssMb: number;
  bytes: number;
}

/** BENCH_PARQUET_ROWS: another count (10,000,000 shows the chosen writer's memory stays bounded). */
const ROWS = Number(process.env.BENCH_PARQUET_ROWS ?? 1_000_000);
const BATCH = 365;
const GROUP = 50_000;

type RankRow = {
  app_id: string;
  keyword_id: string;
  term: string;
  country: string;
  date: string;
  rank: number | null;
  status: string;
};

/** The rows in batches of a keyword's year: some ranked, some unranked, some not observed. */
function* batches(): Generator<RankRow[]> {
  const start = Date.UTC(2025, 11, 1);
  for (let made = 0, keyword = 0; made < ROWS; keyword++) {
    const rows: RankRow[] = [];
    for (let day = 0; day < BATCH && made < ROWS; day++, made++) {
      const seen = (keyword * 7 + day) % 11;
      rows.push({
        app_id: '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11',
        keyword_id: `00000000-0000-4000-8000-${String(keyword).padStart(12, '0')}`,
        term: `keyword ${keyword}`,
        country: 'US',
        date: new Date(start + day * 86_400_000).toISOString().slice(0, 10),
        rank: seen > 2 ? 1 + ((keyword * 13 + day) % 200) : null,
        status: seen > 2 ? 'ranked' : seen > 0 ? 'unranked' : 'not_observed',
      });
    }
    yield rows;
  }
}

async function writeWithHyparquet(file: string): Promise<void> {
  const { open } = await import('node:fs/promises');
  const { tableWriter } = await import('../src/server/services/exports/file-writers');
  const { DATASET_DEFINITIONS } = await import('../src/server/services/exports/datasets');
  const handle = await open(file, 'w');
  const writer = tableWriter(
    'parquet',
    DATASET_DEFINITIONS.keyword_ranks.columns,
    { write: async (bytes) => void (await handle.write(bytes)) },
    { dataset: 'keyword_ranks', description: DATASET_DEFINITIONS.keyword_ranks.description },
  );
  for (const rows of batches()) await writer.writeRows(rows);
  await writer.finish();
  await handle.close();
}

async function writeWithParquetWasm(file: string): Promise<void> {
  const { createWriteStream } = await import('node:fs');
  const { Writable } = await import('node:stream');
  const arrow = await import('apache-arrow');
  const parquet = await import('parquet-wasm');
  let group: RankRow[] = [];
  const source = batches();
  const toBatch = (rows: RankRow[]) => {
    const strings = (name: 'app_id' | 'keyword_id' | 'term' | 'country' | 'status') =>
      arrow.vectorFromArray(
        rows.map((row) => row[name]),
        new arrow.Utf8(),
      );
    const table = new arrow.Table({
      app_id: strings('app_id'),
      keyword_id: strings('keyword_id'),
      term: strings('term'),
      country: strings('country'),
      date: arrow.vectorFromArray(
        rows.map((row) => new Date(`${row.date}T00:00:00Z`)),
        new arrow.DateDay(),
      ),
      rank: arrow.vectorFromArray(
        rows.map((row) => row.rank),
        new arrow.Int32(),
      ),
      status: strings('status'),
    });
    return parquet.Table.fromIPCStream(arrow.tableToIPC(table, 'stream')).recordBatch(0)!;
  };
  const stream = new ReadableStream({
    pull(controller) {
      for (let next = source.next(); !next.done; next = source.next()) {
        group.push(...next.value);
        if (group.length >= GROUP) {
          controller.enqueue(toBatch(group));
          group = [];
          return;
        }
      }
      if (group.length) controller.enqueue(toBatch(group));
      group = [];
      controller.close();
    },
  });
  const bytes = await parquet.transformParquetStream(stream);
  await bytes.pipeTo(Writable.toWeb(createWriteStream(file)));
}

async function writeWithDuckDb(file: string): Promise<void> {
  const { DuckDBDateValue, DuckDBInstance } = await import('@duckdb/node-api');
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(
    'CREATE TABLE keyword_ranks (app_id VARCHAR, keyword_id VARCHAR, term VARCHAR, country VARCHAR, date DATE, rank INTEGER, status VARCHAR)',
  );
  const appender = await connection.createAppender('keyword_ranks');
  for (const rows of batches()) {
    for (const row of rows) {
      appender.appendVarchar(row.app_id);
      appender.appendVarchar(row.keyword_id);
      appender.appendVarchar(row.term);
      appender.appendVarchar(row.country);
      appender.appendDate(new DuckDBDateValue(Date.parse(`${row.date}T00:00:00Z`) / 86_400_000));
      if (row.rank === null) appender.appendNull();
      else appender.appendInteger(row.rank);
      appender.appendVarchar(row.status);
      appender.endRow();
    }
  }
  appender.closeSync();
  await connection.run(`COPY keyword_ranks TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${GROUP})`);
  connection.closeSync();
}

async function child(writer: Writer): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'parquet-writers-'));
  const file = path.join(folder, `${writer}.parquet`);
  // Each writer's modules loaded before the RSS is read, so that the growth is the writing's.
  const write =
    writer === 'hyparquet-writer'
      ? writeWithHyparquet
      : writer === 'parquet-wasm'
        ? writeWithParquetWasm
        : writeWithDuckDb;
  await import(
    writer === 'duckdb' ? '@duckdb/node-api' : writer === 'parquet-wasm' ? 'parquet-wasm' : 'hyparquet-writer'
  );
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  await write(file);
  const seconds = (performance.now() - started) / 1000;
  const measurement: WriterMeasurement = {
    writer,
    rows: ROWS,
    seconds,
    rowsPerSecond: ROWS / seconds,
    rssBeforeMb: rssBefore / 2 ** 20,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
    bytes: statSync(file).size,
  };
  rmSync(folder, { recursive: true, force: true });
  process.stdout.write(JSON.stringify(measurement));
}

const measureInChild = (writer: Writer) =>
  measuredInChild<WriterMeasurement>('scripts/bench-parquet-writers.ts', [writer]);

export async function benchParquetWriters(log: (line: string) => void): Promise<WriterMeasurement[]> {
  const measured: WriterMeasurement[] = [];
  for (const writer of WRITERS) {
    log(`Parquet writers: ${writer}, ${ROWS.toLocaleString('en-US')} rows`);
    measured.push(await measureInChild(writer));
  }
  return measured;
}

const asChild = process.argv.indexOf('--child');
if (asChild > 0) await child(process.argv[asChild + 1] as Writer);
