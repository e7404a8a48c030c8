// DuckDB (@duckdb/node-api) as the tests' independent reader of export files: another implementation of Parquet and
// CSV than the ones that wrote them. An in-memory database a query, closed after it.
import { DuckDBInstance } from '@duckdb/node-api';

/** The query's rows, as JSON values. */
export async function readWithDuckDb(sql: string) {
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson();
  } finally {
    connection.closeSync();
  }
}

/** How many rows DuckDB reads in a Parquet file. */
export async function parquetRowCount(file: string): Promise<number> {
  const [counted] = await readWithDuckDb(`SELECT count(*)::INTEGER AS rows FROM read_parquet('${file}')`);
  return counted!.rows as number;
}
