// What kind of database failure an error is, looked for through its causes (tRPC and Prisma wrap the driver's
// error): the database cannot be reached right now (answered 503, retryable), or PostgreSQL aborted a transaction to
// break a deadlock or a serialization conflict (run again by retryOnConflict).
import { logErrorThrottled } from '@/server/core/log';

/** Socket errors of node's net module, on connect or on an open connection (never a file's ENOENT). */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);
const SOCKET_SYSCALLS = new Set(['connect', 'read', 'write', 'getaddrinfo']);
/** SQLSTATE: class 08 (connection exception), admin/crash shutdown, cannot connect now, too many connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
/** Prisma's driver adapter error kinds and Prisma's own connection error codes. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1017', 'P2024']);
/** node-postgres's own errors for a connection that died or could not be made in time. */
const PG_MESSAGES =
  /^(Connection terminated|Client has encountered a connection error and is not queryable|timeout exceeded when trying to connect|Connection terminated due to connection timeout)/;
/**
 * Prisma's interactive transaction that got no connection within its maxWait (every connection busy), or that ran
 * past its timeout (waiting on locks or a loaded database) and was rolled back: nothing kept, worth a retry.
 */
const TRANSACTION_OUT_OF_TIME =
  /Unable to start a transaction in the given time|cannot be executed on an expired transaction/;

/** SQLSTATE of a deadlock and of a serialization failure (pg's `code`, Prisma's adapter's `originalCode`). */
const CONFLICT_CODES = new Set(['40P01', '40001']);

interface ErrorLike {
  code?: unknown;
  originalCode?: unknown;
  syscall?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: unknown };
}

/** Whether `test` holds for the error or any of its causes (Error.cause, and Prisma's driver adapter error). */
function someCause(error: unknown, test: (candidate: ErrorLike) => boolean): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length) {
    const current = pending.pop();
    if (!current || typeof current !== 'object' || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    if (test(candidate)) return true;
    pending.push(candidate.cause, candidate.meta?.driverAdapterError);
  }
  return false;
}

function unreachable(error: ErrorLike): boolean {
  const { code, syscall, kind, message } = error;
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) && typeof syscall === 'string' && SOCKET_SYSCALLS.has(syscall)) return true;
    if (SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || PRISMA_CODES.has(code)) return true;
  }
  if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
  return (
    typeof message === 'string' &&
    (PG_MESSAGES.test(message) || (code === 'P2028' && TRANSACTION_OUT_OF_TIME.test(message)))
  );
}

/**
 * The database cannot be reached right now (down, restarting, refusing or dropping connections, every connection
 * busy for longer than a request waits for one, or a transaction out of its time), as opposed to a bug or a bad
 * statement: such requests answer 503 `service-unavailable` (retryable, nothing charged) instead of 500; the pool
 * replaces the broken connections once the database is back.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(error, unreachable);
}

/** PostgreSQL aborted the transaction to break a deadlock or a serialization conflict: running it again is right. */
export function isConflict(error: unknown): boolean {
  return someCause(
    error,
    ({ code, originalCode }) => CONFLICT_CODES.has(String(code)) || CONFLICT_CODES.has(String(originalCode)),
  );
}

/** Seconds a client should wait before retrying during an outage (the Retry-After of a 503). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** One line per 5 s for an outage, which fails every request the same way (the count left out goes on the next). */
export function logDatabaseUnavailable(error: unknown, fields: Record<string, string | undefined>): void {
  logErrorThrottled('database unavailable', 5_000, 'database unavailable', error, fields);
}
