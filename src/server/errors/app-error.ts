import type { AppErrorCode } from './problem-types';

/** One entry of a validation problem's `errors` list (CONTRACT "Errors"). */
export interface FieldError {
  in: 'path' | 'query' | 'body' | 'header';
  /** Query, path or header parameter name. */
  name?: string;
  /** JSON pointer into the body, e.g. "#/terms/0". */
  pointer?: string;
  detail: string;
}

/**
 * The one error type services throw: the code selects the HTTP status, problem type and title from PROBLEM_TYPES.
 * It knows nothing of tRPC or HTTP: tRPC carries it as a procedure error's cause, and its error formatter
 * (src/server/api/trpc.ts) gives the dashboard its status; the REST pipeline answers it as a problem.
 */
export class AppError extends Error {
  readonly appCode: AppErrorCode;
  readonly extras: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    code: AppErrorCode,
    detail: string,
    options: { extras?: Record<string, unknown>; errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    // A problem answer is an expected outcome, not a bug: it is built without a stack trace, whose capture costs
    // more than the rest of a 401 (the cause of an unexpected error, logged with its stack, is another object).
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(detail);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = 'AppError';
    this.appCode = code;
    this.extras = { ...options.extras, ...(options.errors ? { errors: options.errors } : {}) };
    this.headers = options.headers ?? {};
  }
}

/** 429: a rate limit's refusal, with the seconds to wait in `Retry-After` (every rate limit answers it so). */
export function rateLimited(detail: string, retryAfterSeconds: number): AppError {
  return new AppError('RATE_LIMITED', detail, { headers: { 'Retry-After': String(retryAfterSeconds) } });
}

/** 403 limit-reached: the account has as many of something as it may have; the body names the cap and its value. */
export function limitReached(cap: string, limit: number, detail: string): AppError {
  return new AppError('LIMIT_REACHED', detail, { extras: { cap, limit } });
}
