// RFC 9457 Problem Details: the body and the response of a problem answer. Free of tRPC, zod and the database, so
// that the proxy (src/proxy.ts) answers with the very same bytes as the route.
import type { AppError } from './app-error';
import { PROBLEM_TYPES, type AppErrorCode } from './problem-types';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** What a problem answer is built from: an AppError, or the same fields where one is not at hand. */
export type Problem = Pick<AppError, 'appCode' | 'message' | 'extras' | 'headers'>;

export function problemTypeUri(origin: string, code: AppErrorCode): string {
  return `${origin}/docs/problems/${PROBLEM_TYPES[code].slug}`;
}

export function problemBody(error: Problem, context: { origin: string; instance: string; requestId: string }) {
  const type = PROBLEM_TYPES[error.appCode];
  return {
    type: problemTypeUri(context.origin, error.appCode),
    title: type.title,
    status: type.status,
    detail: error.message,
    instance: context.instance,
    requestId: context.requestId,
    ...error.extras,
  };
}

export function problemResponse(
  error: Problem,
  context: { origin: string; instance: string; requestId: string; headers?: Record<string, string> },
): Response {
  return new Response(JSON.stringify(problemBody(error, context)), {
    status: PROBLEM_TYPES[error.appCode].status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...error.headers, ...context.headers },
  });
}
