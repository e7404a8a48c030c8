// What each measured endpoint asks of PostgreSQL, for `BENCH_PG_STATS=1 npm run bench` (issue 42: the database round
// trips of a request, counted rather than read from the code). The bench's cluster then loads pg_stat_statements; the
// statistics are cleared before an endpoint's measured rounds and read after them, per request the endpoint answered.
// Statements run by a database function are counted apart (track = all), so a charge shows both its call and the
// writes inside it. The bench's own statements in that window (a measurement's fresh keys) come to a few per
// thousand requests and a fraction of a microsecond each per request, and are left out; a statement run rarely but
// for long (the keys' request log, written once a second) is kept.
import pg from 'pg';

/** The cluster settings that load the statistics. */
export const STATEMENT_STATISTICS_SETTINGS = [
  'shared_preload_libraries=pg_stat_statements',
  'pg_stat_statements.track=all',
];

export interface StatementShare {
  /** The statement's text, whitespace folded, cut to 120 characters. */
  statement: string;
  /** Runs per request answered. */
  perRequest: number;
  /** Execution time per request answered (µs), planning aside. */
  microsecondsPerRequest: number;
  /** Whether a client sent it (false: a statement run inside a function). */
  topLevel: boolean;
}

/** Below this many runs and this much time per request, a statement is the bench's own, not the endpoint's. */
const LEAST_PER_REQUEST = 0.01;
const LEAST_MICROSECONDS_PER_REQUEST = 1;

export async function statementStatistics(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  // The extension's view answers only when the server loaded its library at start.
  await client.query('SELECT 1 FROM pg_stat_statements LIMIT 1').catch((error: unknown) => {
    throw new Error(
      `BENCH_PG_STATS=1 needs pg_stat_statements in the server's shared_preload_libraries: ${String(error)}`,
    );
  });
  return {
    reset: async (): Promise<void> => {
      await client.query('SELECT pg_stat_statements_reset()');
    },
    /** The statements run since the last reset, per request of the `requests` answered meanwhile, most time first. */
    perRequest: async (requests: number): Promise<StatementShare[]> => {
      const { rows } = await client.query<{ query: string; calls: string; total_exec_time: number; toplevel: boolean }>(
        `SELECT query, calls::text AS calls, total_exec_time, toplevel FROM pg_stat_statements
         WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'
         ORDER BY total_exec_time DESC`,
      );
      return rows
        .map((row) => ({
          statement: row.query.replace(/\s+/g, ' ').trim().slice(0, 120),
          perRequest: Number(row.calls) / requests,
          microsecondsPerRequest: (row.total_exec_time * 1000) / requests,
          topLevel: row.toplevel,
        }))
        .filter(
          (share) =>
            share.perRequest >= LEAST_PER_REQUEST || share.microsecondsPerRequest >= LEAST_MICROSECONDS_PER_REQUEST,
        );
    },
    close: () => client.end(),
  };
}
