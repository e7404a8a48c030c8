// Any thrown value mapped to an AppError, the one error type a problem answer is built from (src/server/errors/problem-response.ts).
import { TRPCError, type TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import { ZodError } from 'zod';
import { logError } from '@/server/core/log';
import { isDatabaseUnavailable, logDatabaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from '@/server/db/errors';
import { AppError } from '@/server/errors/app-error';
import { internalErrorProblem } from '@/server/errors/problem-response';
import { PROBLEM_TYPES, type AppErrorCode } from '@/server/errors/problem-types';
import { fieldErrorsFromIssues, validationError, type Locate } from '@/server/errors/validation';

/** The tRPC code of each problem type, for the dashboard's client. */
const TRPC_CODES: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  VALIDATION_ERROR: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  PLAN_REQUIRED: 'FORBIDDEN',
  INSUFFICIENT_SCOPE: 'FORBIDDEN',
  IP_NOT_ALLOWED: 'FORBIDDEN',
  LIMIT_REACHED: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  METHOD_NOT_ALLOWED: 'METHOD_NOT_SUPPORTED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  LENGTH_REQUIRED: 'BAD_REQUEST',
  HEADERS_TOO_LARGE: 'BAD_REQUEST',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  CREDITS_EXHAUSTED: 'PAYMENT_REQUIRED',
  KEY_BUDGET_EXHAUSTED: 'PAYMENT_REQUIRED',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  CONFLICT: 'CONFLICT',
  DOWNLOAD_LINK_INVALID: 'FORBIDDEN',
  IDEMPOTENCY_CONFLICT: 'UNPROCESSABLE_CONTENT',
  INTERNAL_ERROR: 'INTERNAL_SERVER_ERROR',
  STORE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

/** What the dashboard's client reads of a call refused with an AppError: the problem, its HTTP status and tRPC code. */
export function dashboardErrorOf(appError: AppError) {
  const code = TRPC_CODES[appError.appCode];
  return {
    message: appError.message,
    code: TRPC_ERROR_CODES_BY_KEY[code],
    data: {
      code,
      httpStatus: PROBLEM_TYPES[appError.appCode].status,
      problem: { code: appError.appCode, detail: appError.message, ...appError.extras },
    },
  };
}

/** The AppError a call failed with: the error itself, or the cause tRPC wraps it in. */
export function appErrorOf(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  return error instanceof TRPCError && error.cause instanceof AppError ? error.cause : null;
}

const BY_TRPC_CODE: Partial<Record<TRPCError['code'], AppErrorCode>> = {
  PARSE_ERROR: 'VALIDATION_ERROR',
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHORIZED: 'UNAUTHORIZED',
  METHOD_NOT_SUPPORTED: 'METHOD_NOT_ALLOWED',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  TOO_MANY_REQUESTS: 'RATE_LIMITED',
  CONFLICT: 'CONFLICT',
};

/**
 * Any thrown value as an AppError. Input validation failures (a ZodError under a tRPC BAD_REQUEST) become
 * validation problems with an `errors` list; a database that cannot be reached becomes a retryable 503; anything
 * else unexpected becomes an opaque internal error. `unexpected` is true for both, so that the caller logs the
 * real cause.
 */
export function toAppError(error: unknown, locate?: Locate): { error: AppError; unexpected: boolean } {
  const appError = appErrorOf(error);
  if (appError) return { error: appError, unexpected: false };
  if (error instanceof TRPCError) {
    if (error.cause instanceof ZodError)
      return { error: validationError(fieldErrorsFromIssues(error.cause.issues, locate)), unexpected: false };
    const code = BY_TRPC_CODE[error.code];
    if (code) return { error: new AppError(code, error.message), unexpected: false };
  }
  if (isDatabaseUnavailable(error)) return { error: serviceUnavailable(), unexpected: true };
  return { error: new AppError('INTERNAL_ERROR', internalErrorProblem().message), unexpected: true };
}

/**
 * toAppError for a failure about to be answered: an unexpected one is logged first with its real cause, a database
 * outage as such (throttled), anything else as `message`.
 */
export function answerableError(
  thrown: unknown,
  message: string,
  fields: Record<string, string | undefined>,
): AppError {
  const { error, unexpected } = toAppError(thrown);
  if (unexpected && error.appCode === 'SERVICE_UNAVAILABLE') logDatabaseUnavailable(thrown, fields);
  else if (unexpected) logError(message, thrown, fields);
  return error;
}

function serviceUnavailable(): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    `The service cannot reach its database right now. Nothing was charged; retry in ${UNAVAILABLE_RETRY_AFTER_SECONDS} s.`,
    {
      headers: { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) },
    },
  );
}
