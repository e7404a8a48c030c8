// An export's file in each format, written batch by batch to a sink (its storage), so that memory holds one batch and
// one chunk whatever the file's size: Parquet with a typed schema per dataset (hyparquet-writer: pure JavaScript, no
// WebAssembly or native build, and an incremental writer that hands its bytes over after each row group), the columns'
// meanings in the file's key-value metadata; CSV by RFC 4180 (csv-stringify: quoting, CRLF line ends); JSON Lines, one
// object a line.
import { createHash } from 'node:crypto';
import { stringify } from 'csv-stringify/sync';
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import type { Column, Row } from './datasets';

export const EXPORT_FORMATS = ['parquet', 'csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const FORMAT_MEDIA_TYPES: Record<ExportFormat, string> = {
  parquet: 'application/vnd.apache.parquet',
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/jsonl; charset=utf-8',
};

/** A file's name as it downloads and is kept: its dataset, and its format as the extension. */
export const exportFileName = (dataset: string, format: ExportFormat) => `${dataset}.${format}`;

/** Where a file's bytes go, in order. */
export interface ByteSink {
  write(bytes: Uint8Array): Promise<void>;
}

/** A file being written: its rows in batches, then its end; what it wrote, counted and hashed as it went. */
export interface TableWriter {
  writeRows(rows: Row[]): Promise<void>;
  finish(): Promise<{ rows: number; bytes: number; sha256: string }>;
}

/** Counts and hashes what passes to the sink. */
function measured(sink: ByteSink) {
  const hash = createHash('sha256');
  let bytes = 0;
  return {
    async write(chunk: Uint8Array) {
      if (!chunk.byteLength) return;
      hash.update(chunk);
      bytes += chunk.byteLength;
      await sink.write(chunk);
    },
    result: () => ({ bytes, sha256: hash.digest('hex') }),
  };
}

export function tableWriter(
  format: ExportFormat,
  columns: Column[],
  sink: ByteSink,
  meta: { dataset: string; description: string },
): TableWriter {
  const out = measured(sink);
  let rows = 0;
  if (format === 'parquet')
    return parquetWriter(
      columns,
      out,
      meta,
      () => rows,
      (count) => (rows += count),
    );
  const encoder = new TextEncoder();
  return {
    async writeRows(batch) {
      if (format === 'csv') {
        const text = stringify(
          batch.map((row) => columns.map((column) => row[column.name] ?? '')),
          {
            header: rows === 0,
            columns: columns.map((column) => column.name),
            record_delimiter: 'windows',
            quoted_match: /^\s|\s$/,
          },
        );
        await out.write(encoder.encode(text));
      } else {
        await out.write(encoder.encode(batch.map((row) => `${JSON.stringify(row)}\n`).join('')));
      }
      rows += batch.length;
    },
    async finish() {
      // An empty CSV still names its columns.
      if (format === 'csv' && rows === 0)
        await out.write(encoder.encode(stringify([], { header: true, columns: columns.map((column) => column.name) })));
      return { rows, ...out.result() };
    },
  };
}

/** How many rows a Parquet row group holds: large enough to compress well, small enough to hold one in memory. */
const ROW_GROUP_ROWS = 50_000;
/** Bytes the Parquet writer's buffer holds before they are handed to the sink. */
const FLUSH_BYTES = 1 << 20;

const PARQUET_TYPES = {
  string: { type: 'BYTE_ARRAY', converted_type: 'UTF8' },
  date: { type: 'INT32', converted_type: 'DATE' },
  timestamp: { type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' },
  int32: { type: 'INT32' },
  int64: { type: 'INT64' },
  double: { type: 'DOUBLE' },
} as const;

function parquetValue(column: Column, value: string | number | null): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'date') return new Date(`${value}T00:00:00Z`);
  if (column.type === 'timestamp') return new Date(String(value));
  if (column.type === 'int64') return BigInt(value);
  return value;
}

function parquetWriter(
  columns: Column[],
  out: ReturnType<typeof measured>,
  meta: { dataset: string; description: string },
  rowCount: () => number,
  addRows: (count: number) => void,
): TableWriter {
  // hyparquet-writer's writer appends to a growing buffer; here the bytes written so far are taken out whenever it
  // would grow past FLUSH_BYTES, and handed to the sink after each row group (its flush, which the writer awaits).
  const buffer = new ByteWriter();
  const pending: Uint8Array[] = [];
  const take = () => {
    if (buffer.index) pending.push(new Uint8Array(buffer.buffer, 0, buffer.index).slice());
    buffer.index = 0;
  };
  const ensure = buffer.ensure.bind(buffer);
  buffer.ensure = (size: number) => {
    if (buffer.index > FLUSH_BYTES) take();
    ensure(size);
  };
  const drain = async () => {
    take();
    while (pending.length) await out.write(pending.shift()!);
  };
  Object.assign(buffer, { flush: drain });
  const writer = new ParquetWriter({
    writer: buffer,
    schema: [
      { name: 'root', num_children: columns.length },
      ...columns.map((column) => ({
        name: column.name,
        ...PARQUET_TYPES[column.type],
        repetition_type: column.nullable ? ('OPTIONAL' as const) : ('REQUIRED' as const),
      })),
    ],
    // What each column means, as the data dictionary says it, for whoever reads the file without the docs.
    kvMetadata: [
      { key: 'aso.dataset', value: meta.dataset },
      { key: 'aso.description', value: meta.description },
      {
        key: 'aso.columns',
        value: JSON.stringify(Object.fromEntries(columns.map((column) => [column.name, column.description]))),
      },
    ],
    createdBy: 'ASO Analytics exports (hyparquet-writer)',
  });
  // Rows wait until a row group's worth is there: a dataset's batches (a keyword's year) are smaller than one.
  let waiting: Row[] = [];
  const writeGroup = async (group: Row[]) => {
    await writer.write({
      columnData: columns.map((column) => ({
        name: column.name,
        data: group.map((row) => parquetValue(column, row[column.name] ?? null)),
      })),
      rowGroupSize: ROW_GROUP_ROWS,
    } as Parameters<ParquetWriter['write']>[0]);
    addRows(group.length);
    await drain();
  };
  return {
    async writeRows(batch) {
      waiting.push(...batch);
      while (waiting.length >= ROW_GROUP_ROWS) {
        const group = waiting.slice(0, ROW_GROUP_ROWS);
        waiting = waiting.slice(ROW_GROUP_ROWS);
        await writeGroup(group);
      }
    },
    async finish() {
      if (waiting.length) await writeGroup(waiting);
      waiting = [];
      await writer.finish();
      await drain();
      return { rows: rowCount(), ...out.result() };
    },
  };
}
