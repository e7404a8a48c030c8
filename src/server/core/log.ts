// Structured logs: one JSON line per API request (request id, route, status, duration, who), and errors
// with their cause. Never a credential, a body or a header value.
import { config } from './config';
type Fields = Record<string, string | number | boolean | null | undefined>;

function write(stream: NodeJS.WriteStream, level: 'info' | 'error', message: string, fields: Fields): void {
  stream.write(JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }) + '\n');
}

export function logRequest(fields: Fields): void {
  if (!config().LOG_REQUESTS) return;
  write(process.stdout, 'info', 'request', fields);
}

/** Something an operator may want to know happened (a plan changed by a Stripe event, say). */
export function logInfo(message: string, fields: Fields = {}): void {
  write(process.stdout, 'info', message, fields);
}

export function logError(message: string, error: unknown, fields: Fields = {}): void {
  const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : undefined;
  write(process.stderr, 'error', message, { ...fields, error: cause ? `${cause.name}: ${cause.message}` : String(error), stack: cause?.stack });
}

const throttled = new Map<string, { until: number; suppressed: number }>();

/**
 * logError at most once per `intervalMs` for one `key`: a database outage fails every request the same way and
 * would otherwise write a stack per request. The next line written says how many were left out.
 */
export function logErrorThrottled(key: string, intervalMs: number, message: string, error: unknown, fields: Fields = {}): void {
  const now = Date.now();
  const state = throttled.get(key);
  if (state && now < state.until) {
    state.suppressed += 1;
    return;
  }
  throttled.set(key, { until: now + intervalMs, suppressed: 0 });
  logError(message, error, state?.suppressed ? { ...fields, suppressedSinceLast: state.suppressed } : fields);
}
