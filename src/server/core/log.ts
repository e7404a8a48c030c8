// Structured logs through pino, in its own shape (numeric `level`, `time` in epoch milliseconds, `pid`, `hostname`,
// `msg`), so that its tools read them: one line per API request on stdout (request id, route, status, duration,
// who), operator notices on stdout, errors with their cause on stderr. A line written while a request is served
// carries its `requestId` (core/request-context.ts). Never a credential, a body or a header value.
import pino, { type Logger } from 'pino';
import { epochMs } from './clock';
import { config } from './config';
import { currentRequestId } from './request-context';
import { atTurnEnd, runTurnEndTasks } from './turn-end';

type Fields = Record<string, string | number | boolean | null | undefined>;

const options: pino.LoggerOptions = {
  // pino's own epoch time, read from the serving path's clock (./clock.ts).
  timestamp: () => `,"time":${epochMs()}`,
  // An error's name, message, code and stack only: a library's error may carry its connection (pg's `client`) or
  // request, which a log line must never hold.
  serializers: {
    err: (error: Error & { code?: unknown }) => ({
      type: error.name,
      message: error.message,
      ...(typeof error.code === 'string' && { code: error.code }),
      stack: error.stack,
    }),
  },
  mixin: () => {
    const requestId = currentRequestId();
    return requestId ? { requestId } : {};
  },
};

// Made at first use, on the streams of that moment (the tests replace their write method).
let out: Logger | undefined;
let errors: Logger | undefined;
let requests: Logger | undefined;

/**
 * The request log's lines wait for the end of the event loop's turn (./turn-end.ts), then go to stdout in one write:
 * under load a turn ends many requests, and a write of its own for each line was a system call per request. What a
 * process loses when it is killed outright (SIGKILL, the kernel's out-of-memory killer) is the lines of that one turn;
 * on any exit that runs its 'exit' handlers (a normal one, SIGTERM or SIGINT through the server's shutdown, an uncaught
 * exception) they are written first.
 */
let waitingLines: string[] = [];
const requestLines = {
  write(line: string): void {
    if (waitingLines.push(line) === 1) atTurnEnd(writeWaitingLines);
  },
};

function writeWaitingLines(): void {
  if (!waitingLines.length) return;
  const text = waitingLines.join('');
  waitingLines = [];
  process.stdout.write(text);
}

/** Writes the request log's lines now, those of the answers whose bookkeeping still waits included (a test reading them). */
export function flushRequestLog(): void {
  runTurnEndTasks();
  writeWaitingLines();
}

/** The request log's options: its lines carry their request's id themselves, so they need no mixin to look it up. */
const requestLogOptions: pino.LoggerOptions = { ...options, mixin: undefined };

export function logRequest(fields: Fields & { requestId: string }): void {
  if (!config().LOG_REQUESTS) return;
  requests ??= pino(requestLogOptions, requestLines);
  requests.info(fields, 'request');
}

/** Something an operator may want to know happened (a plan changed by a Stripe event, say). */
export function logInfo(message: string, fields: Fields = {}): void {
  out ??= pino(options, process.stdout);
  out.info(fields, message);
}

/** Operator notices on stderr from now on: for a process whose stdout carries answers alone (the CLI's `batch`). */
export function logNoticesToStderr(): void {
  out = pino(options, process.stderr);
}

export function logError(message: string, error: unknown, fields: Fields = {}): void {
  errors ??= pino(options, process.stderr);
  const cause =
    error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : new Error(String(error));
  errors.error({ ...fields, err: cause }, message);
}

const throttled = new Map<string, { until: number; suppressed: number }>();

/**
 * logError at most once per `intervalMs` for one `key`: a database outage fails every request the same way and
 * would otherwise write a stack per request. The next line written says how many were left out.
 */
export function logErrorThrottled(
  key: string,
  intervalMs: number,
  message: string,
  error: unknown,
  fields: Fields = {},
): void {
  const now = Date.now();
  const state = throttled.get(key);
  if (state && now < state.until) {
    state.suppressed += 1;
    return;
  }
  throttled.set(key, { until: now + intervalMs, suppressed: 0 });
  logError(message, error, state?.suppressed ? { ...fields, suppressedSinceLast: state.suppressed } : fields);
}
