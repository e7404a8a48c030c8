// The per-key request rate over real HTTP, with two app processes on one database: a Solo key's 600 requests a minute
// hold across both (they share the count), instead of 600 on each.
import type { ChildProcess } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { API, bearer, createKey, newAccount } from '../helpers';
import { startSecondApp } from '../environment';

const SECOND_PORT = 3216;
let second: ChildProcess | undefined;

test.afterAll(() => {
  second?.kill('SIGTERM');
});

test('a key’s requests per minute hold across two app processes on one database', async ({ request, playwright }) => {
  test.setTimeout(120_000);
  const started = await startSecondApp(SECOND_PORT, playwright.request);
  second = started.process;
  const other = started.request;

  const { session } = await newAccount('solo');
  const key = await createKey(session, 'read-only', 'rate limit spec');
  // 900 free calls, half through each process, in bursts: within one minute's window.
  const statuses: number[] = [];
  const retryAfter: number[] = [];
  for (let burst = 0; burst < 9; burst++) {
    const responses = await Promise.all(Array.from({ length: 100 }, (_, index) => (index % 2 ? request : other).get(`${API}/usage`, { headers: bearer(key) })));
    for (const response of responses) {
      statuses.push(response.status());
      if (response.status() === 429) retryAfter.push(Number(response.headers()['retry-after']));
    }
  }
  const allowed = statuses.filter((status) => status === 200).length;
  expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
  // The limit across both: never more, and short of it by at most each process's unspent lease (10 % of it at most).
  expect(allowed).toBeLessThanOrEqual(600);
  expect(allowed).toBeGreaterThanOrEqual(600 - 2 * 60);
  expect(retryAfter.every((seconds) => seconds >= 1 && seconds <= 60)).toBe(true);
  await other.dispose();
});
