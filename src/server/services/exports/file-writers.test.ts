// Each format as an independent reader reads it: DuckDB (its own Parquet and CSV readers, not the library that wrote
// them), row for row, types and nulls kept; the hash and size are the file's.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATASET_DEFINITIONS, type Row } from './datasets';
import { type ExportFormat, tableWriter } from './file-writers';
import { readWithDuckDb } from '../../../../test/duckdb';

const folder = mkdtempSync(path.join(tmpdir(), 'export-writers-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const columns = DATASET_DEFINITIONS.keyword_ranks.columns;

/** Rows as the keyword ranks dataset gives them: some ranked, some not, a term that needs quoting. */
function rowsOf(count: number): Row[] {
  return Array.from({ length: count }, (_, index) => ({
    app_id: '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11',
    keyword_id: `7c9e6679-7425-40de-944b-${String(index % 7).padStart(12, '0')}`,
    term: index % 3 ? 'sleep sounds' : 'rain, "white" noise',
    country: 'US',
    date: new Date(Date.UTC(2026, 0, 1) + (index % 365) * 86_400_000).toISOString().slice(0, 10),
    rank: index % 4 === 0 ? null : (index % 200) + 1,
    status: index % 4 === 0 ? (index % 8 === 0 ? 'unranked' : 'not_observed') : 'ranked',
  }));
}

async function written(format: ExportFormat, rows: Row[]) {
  const chunks: Uint8Array[] = [];
  const writer = tableWriter(
    format,
    columns,
    { write: async (bytes) => void chunks.push(bytes) },
    {
      dataset: 'keyword_ranks',
      description: DATASET_DEFINITIONS.keyword_ranks.description,
    },
  );
  // In batches smaller and larger than a row group, as datasets give them.
  for (let start = 0; start < rows.length; start += start % 2 ? 365 : 70_000)
    await writer.writeRows(rows.slice(start, start + (start % 2 ? 365 : 70_000)));
  const result = await writer.finish();
  const file = path.join(folder, `rows.${format}`);
  writeFileSync(file, Buffer.concat(chunks));
  return { file, result };
}

describe('export files', () => {
  const rows = rowsOf(123_457);

  it('writes Parquet that DuckDB reads back row for row, typed, with the columns’ meanings', async () => {
    const { file, result } = await written('parquet', rows);
    expect(result.rows).toBe(rows.length);
    expect(result.bytes).toBe(readFileSync(file).byteLength);
    expect(result.sha256).toBe(createHash('sha256').update(readFileSync(file)).digest('hex'));
    const read = await readWithDuckDb(
      `SELECT app_id, keyword_id, term, country, strftime(date, '%Y-%m-%d') AS date, rank, status FROM read_parquet('${file}')`,
    );
    expect(read).toEqual(rows);
    const types = await readWithDuckDb(`DESCRIBE SELECT * FROM read_parquet('${file}')`);
    expect(Object.fromEntries(types.map((row) => [row.column_name, row.column_type]))).toMatchObject({
      date: 'DATE',
      rank: 'INTEGER',
      term: 'VARCHAR',
    });
    const meta = await readWithDuckDb(
      `SELECT decode(key) AS key, decode(value) AS value FROM parquet_kv_metadata('${file}')`,
    );
    expect(JSON.parse(String(meta.find((entry) => entry.key === 'aso.columns')!.value))).toMatchObject({
      rank: expect.stringContaining('null unless'),
    });
  });

  it('writes CSV by RFC 4180 (quoted where needed, CRLF) and JSON Lines, both read back whole', async () => {
    const sample = rows.slice(0, 2_000);
    const csv = await written('csv', sample);
    const text = readFileSync(csv.file, 'utf8');
    expect(text.startsWith('app_id,keyword_id,term,country,date,rank,status\r\n')).toBe(true);
    expect(text).toContain('"rain, ""white"" noise"');
    const fromCsv = await readWithDuckDb(
      `SELECT * REPLACE (strftime(date, '%Y-%m-%d') AS date) FROM read_csv('${csv.file}', header = true, types = {'rank': 'INTEGER', 'date': 'DATE', 'keyword_id': 'VARCHAR', 'app_id': 'VARCHAR'})`,
    );
    expect(fromCsv).toEqual(sample);
    const jsonl = await written('jsonl', sample);
    expect(
      readFileSync(jsonl.file, 'utf8')
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(sample);
  });
});
