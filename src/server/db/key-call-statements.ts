// The statements of the keys' request logs (key_calls) and their calls per day (key_call_days), on the pg pool: a
// process writes what it buffered in two statements, whatever the number of calls.
import { hotQuery } from './index';

/** One call as the request log keeps it. */
export interface KeyCallRow {
  key_id: string;
  at: string;
  method: string;
  endpoint: string;
  status: number;
  credits: number;
  client_address: string | null;
  request_id: string;
}

/** A key's calls on one day (YYYY-MM-DD), to be added to what is counted already. */
export interface KeyCallDayRow {
  key_id: string;
  day: string;
  calls: number;
  failures: number;
}

/**
 * Inserts the calls and adds the day counts. A key deleted meanwhile (its account closed) is skipped rather than
 * failing the others. Day rows come sorted by key and day, so that two processes lock them in the same order.
 */
export async function insertKeyCalls(calls: KeyCallRow[], days: KeyCallDayRow[]): Promise<void> {
  await hotQuery(
    `WITH calls AS (
       INSERT INTO key_calls (key_id, at, method, endpoint, status, credits, client_address, request_id)
       SELECT c.key_id, c.at, c.method, c.endpoint, c.status, c.credits, c.client_address, c.request_id
       FROM jsonb_to_recordset($1::jsonb) AS c(key_id uuid, at timestamptz, method text, endpoint text, status int, credits int, client_address text, request_id uuid)
       WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = c.key_id)
       RETURNING 1
     )
     INSERT INTO key_call_days (key_id, day, calls, failures)
     SELECT d.key_id, d.day, d.calls, d.failures
     FROM jsonb_to_recordset($2::jsonb) AS d(key_id uuid, day date, calls int, failures int)
     WHERE EXISTS (SELECT 1 FROM api_keys k WHERE k.id = d.key_id)
     ORDER BY d.key_id, d.day
     ON CONFLICT (key_id, day) DO UPDATE SET calls = key_call_days.calls + EXCLUDED.calls, failures = key_call_days.failures + EXCLUDED.failures`,
    [JSON.stringify(calls), JSON.stringify(days)],
  );
}

/** Deletes the calls of these keys older than each one's `kept` newest. */
export async function trimKeyCalls(keyIds: string[], kept: number): Promise<void> {
  await hotQuery(
    `DELETE FROM key_calls c
     USING (
       SELECT u.key_id, (SELECT k.at FROM key_calls k WHERE k.key_id = u.key_id ORDER BY k.at DESC OFFSET $2::int - 1 LIMIT 1) AS oldest_kept
       FROM unnest($1::uuid[]) AS u(key_id)
     ) t
     WHERE c.key_id = t.key_id AND c.at < t.oldest_kept`,
    [[...keyIds].sort(), kept],
  );
}
