// A key's usage you can look at (Settings → API access → a key): its request log, the last KEY_CALLS_KEPT calls with
// their time, endpoint, status, cost, client address and request id, failures included (they cost nothing, and they
// are what people debug); and its calls and credits per day.
//
// The record step of every call (src/server/operations/record.ts) records each call a valid key makes (recordKeyCall)
// into a buffer of this process, which is written in two statements about once a second and at shutdown, then trimmed
// to each key's last KEY_CALLS_KEPT: the request path never waits for it. A process that dies loses its last second of
// calls from the log and the call counts; the credits per day come from the ledger's rollup, which the charging
// statement keeps exact.
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { logError } from '@/server/core/log';
import { runTurnEndTasks } from '@/server/core/turn-end';
import { db } from '@/server/db';
import { insertKeyCalls, trimKeyCalls, type KeyCallDayRow, type KeyCallRow } from '@/server/db/key-call-statements';
import { AppError } from '@/server/errors/app-error';
import { usageRange } from '@/server/services/metering/credits';

/** How many of a key's calls its request log keeps. */
export const KEY_CALLS_KEPT = 1000;
const FLUSH_DELAY_MS = 1000;

export interface KeyCall {
  keyId: string;
  at: Date;
  method: string;
  /** "GET /apps/{id}", as in the ledger; the path as sent when no route matched. */
  endpoint: string;
  status: number;
  credits: number;
  clientAddress: string | null;
  requestId: string;
}

// ---- Recording, off the request path -----------------------------------------------------------------------------

/** Per key, its calls since the last write, oldest first: never more than twice what the log keeps. */
const pendingCalls = new Map<string, KeyCallRow[]>();
/** Per key and day, the calls and failures since the last write: every call, also those the log no longer holds. */
const pendingDays = new Map<string, KeyCallDayRow>();
let flushTimer: NodeJS.Timeout | null = null;
let writing: Promise<void> | null = null;

/** Keeps a call for the key's request log and its calls per day. Synchronous: the request path never waits for it. */
export function recordKeyCall(call: KeyCall): void {
  let calls = pendingCalls.get(call.keyId);
  if (!calls) pendingCalls.set(call.keyId, (calls = []));
  calls.push({
    key_id: call.keyId,
    at: call.at.toISOString(),
    method: call.method,
    endpoint: call.endpoint,
    status: call.status,
    credits: call.credits,
    client_address: call.clientAddress,
    request_id: call.requestId,
  });
  // Older calls than the log keeps would be trimmed once written: a burst drops them here instead.
  if (calls.length >= 2 * KEY_CALLS_KEPT) calls.splice(0, calls.length - KEY_CALLS_KEPT);
  const day = isoDay(call.at);
  const dayKey = `${call.keyId} ${day}`;
  const counts = pendingDays.get(dayKey) ?? { key_id: call.keyId, day, calls: 0, failures: 0 };
  counts.calls += 1;
  if (call.status >= 400) counts.failures += 1;
  pendingDays.set(dayKey, counts);
  flushTimer ??= setTimeout(() => void flushKeyCalls(), FLUSH_DELAY_MS).unref();
}

/**
 * Writes what this process has recorded, after any write under way: once it returns, every call recorded before it
 * is readable, and every call answered before it (whose record waited for the end of the turn: core/turn-end.ts). A
 * write that fails is logged and its calls dropped; the request log is not worth a retry loop.
 */
export async function flushKeyCalls(): Promise<void> {
  runTurnEndTasks();
  if (flushTimer) clearTimeout(flushTimer);
  flushTimer = null;
  while (writing) await writing;
  if (pendingCalls.size === 0 && pendingDays.size === 0) return;
  const calls = [...pendingCalls.values()].flatMap((list) => list.slice(-KEY_CALLS_KEPT));
  const days = [...pendingDays.values()];
  const keyIds = [...pendingCalls.keys()];
  pendingCalls.clear();
  pendingDays.clear();
  writing = (async () => {
    try {
      await insertKeyCalls(calls, days);
      await trimKeyCalls(keyIds, KEY_CALLS_KEPT);
    } catch (error) {
      logError('the keys’ request log could not be written', error, { calls: calls.length });
    } finally {
      writing = null;
    }
  })();
  await writing;
}

// ---- Reading ------------------------------------------------------------------------------------------------------

export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
type StatusClass = (typeof STATUS_CLASSES)[number];

/** A page of the request log, as api-keys.schema.ts parses it. */
export interface KeyCallsQuery {
  keyId: string;
  statusClass?: StatusClass;
  endpoint?: string;
  page: number;
  pageSize: number;
}

/** A range of days (YYYY-MM-DD), as api-keys.schema.ts parses it; omitted: the last KEY_USAGE_DEFAULT_DAYS. */
export interface KeyUsageQuery {
  keyId: string;
  from?: string;
  to?: string;
}

/** How many days the chart shows when no range is given: the last 30, today included. */
const KEY_USAGE_DEFAULT_DAYS = 30;

async function ownKey(accountId: string, keyId: string) {
  // A connected app (an OAuth grant) has the same usage and request log as a key.
  const key = await db.apiKey.findFirst({
    where: { id: keyId, accountId },
    select: { id: true, name: true, kind: true, displayPrefix: true, lastFour: true },
  });
  if (!key) throw new AppError('NOT_FOUND', 'No such API key.');
  return {
    id: key.id,
    name: key.name,
    key: key.kind === 'oauth_grant' ? 'connected app (OAuth)' : `${key.displayPrefix}…${key.lastFour}`,
  };
}

/**
 * A page of the key's request log, newest first, with how many calls the filter matches and every endpoint the log
 * holds (for the filter). What this process has buffered is written first, so a call just made is listed.
 */
export async function listKeyCalls(accountId: string, input: KeyCallsQuery) {
  const key = await ownKey(accountId, input.keyId);
  await flushKeyCalls();
  const hundreds = input.statusClass ? Number(input.statusClass[0]) * 100 : null;
  const where = {
    keyId: key.id,
    ...(hundreds !== null && { status: { gte: hundreds, lt: hundreds + 100 } }),
    ...(input.endpoint && { endpoint: input.endpoint }),
  };
  const [total, rows, endpoints] = await Promise.all([
    db.keyCall.count({ where }),
    db.keyCall.findMany({
      where,
      orderBy: [{ at: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
    db.keyCall.findMany({
      where: { keyId: key.id },
      distinct: ['endpoint'],
      select: { endpoint: true },
      orderBy: { endpoint: 'asc' },
    }),
  ]);
  return {
    key,
    kept: KEY_CALLS_KEPT,
    total,
    page: input.page,
    pageSize: input.pageSize,
    endpoints: endpoints.map((row) => row.endpoint),
    calls: rows.map((row) => ({
      id: row.id.toString(),
      at: row.at.toISOString(),
      method: row.method,
      endpoint: row.endpoint,
      status: row.status,
      credits: row.credits,
      clientAddress: row.clientAddress,
      requestId: row.requestId,
    })),
  };
}
export type KeyCallsPage = Awaited<ReturnType<typeof listKeyCalls>>;

/** The key's calls (failures among them) and credits on each day of the range, quiet days as zero, oldest first. */
export async function keyUsage(accountId: string, input: KeyUsageQuery, now = new Date()) {
  const { from, to } = usageRange(now, {
    from: input.from ?? isoDay(addDays(startOfUtcDay(now), 1 - KEY_USAGE_DEFAULT_DAYS)),
    to: input.to,
  });
  const key = await ownKey(accountId, input.keyId);
  await flushKeyCalls();
  const range = { gte: new Date(`${from}T00:00:00.000Z`), lte: new Date(`${to}T00:00:00.000Z`) };
  const [callDays, creditDays] = await Promise.all([
    db.keyCallDay.findMany({ where: { keyId: key.id, day: range } }),
    db.creditUsageDaily.groupBy({
      by: ['day'],
      where: { accountId, subject: key.id, day: range },
      _sum: { credits: true },
    }),
  ]);
  const calls = new Map(callDays.map((row) => [isoDay(row.day), row]));
  const credits = new Map(creditDays.map((row) => [isoDay(row.day), row._sum.credits ?? 0]));
  const days = [];
  for (let day = from; day <= to; day = isoDay(addDays(new Date(`${day}T00:00:00.000Z`), 1))) {
    days.push({
      date: day,
      calls: calls.get(day)?.calls ?? 0,
      failures: calls.get(day)?.failures ?? 0,
      credits: credits.get(day) ?? 0,
    });
  }
  return { key, from, to, days };
}
export type KeyUsage = Awaited<ReturnType<typeof keyUsage>>;
