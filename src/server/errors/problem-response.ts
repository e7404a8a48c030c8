// RFC 9457 Problem Details: the body and the answer of a problem, as the REST pipeline, the app's server (for the
// requests it refuses before Next.js) and the route handlers send it.
import type { AppError } from './app-error';
import { PROBLEM_TYPES, type AppErrorCode } from './problem-types';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/** What a problem answer is built from: an AppError, or the same fields where one is not at hand. */
export type Problem = Pick<AppError, 'appCode' | 'message' | 'extras' | 'headers'>;

function problemTypeUri(origin: string, code: AppErrorCode): string {
  return `${origin}/docs/problems/${PROBLEM_TYPES[code].slug}`;
}

function problemBody(error: Problem, context: { origin: string; instance: string; requestId: string }) {
  const type = PROBLEM_TYPES[error.appCode];
  return {
    type: problemTypeUri(context.origin, error.appCode),
    code: type.slug,
    title: type.title,
    status: type.status,
    detail: error.message,
    instance: context.instance,
    requestId: context.requestId,
    ...error.extras,
  };
}

/** 405 for a path that accepts only `allowed`: named in the detail and in `Allow` (RFC 9110 §15.5.6). */
export function methodNotAllowedProblem(method: string, allowed: readonly string[]): Problem {
  const choices = allowed.length > 1 ? `${allowed.slice(0, -1).join(', ')} or ${allowed.at(-1)}` : allowed.join('');
  return {
    appCode: 'METHOD_NOT_ALLOWED',
    message: `${method} is not allowed here; use ${choices}.`,
    extras: {},
    headers: { Allow: allowed.join(', ') },
  };
}

/** The largest request body the service reads, on the public API and everywhere else. */
export const MAX_BODY_BYTES = 64 * 1024;

export function payloadTooLargeProblem(): Problem {
  return {
    appCode: 'PAYLOAD_TOO_LARGE',
    message: `The request body exceeds ${MAX_BODY_BYTES} bytes (64 KiB).`,
    extras: {},
    headers: {},
  };
}

/** 500: a fault of ours, whose cause is logged and never shown. */
export function internalErrorProblem(): Problem {
  return {
    appCode: 'INTERNAL_ERROR',
    message: 'An unexpected error occurred. Nothing was charged.',
    extras: {},
    headers: {},
  };
}

/** A whole answer as plain data: a route wraps it in a Response, the HTTP front writes it to Node's response. */
export interface PlainAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

type ProblemContext = { origin: string; instance: string; requestId: string; headers?: Record<string, string> };

export function problemAnswer(error: Problem, context: ProblemContext): PlainAnswer {
  return {
    status: PROBLEM_TYPES[error.appCode].status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, ...error.headers, ...context.headers },
    body: JSON.stringify(problemBody(error, context)),
  };
}

/**
 * The answer of a problem given often with nothing but its instance and request id changing (a credential refused on
 * its shape, on every request of a client that sends none): what does not change is serialised once, and each answer
 * is the same bytes as problemAnswer's (problem-response.test.ts). Its headers object is shared: read it, never write it.
 */
export function problemTemplate(error: Problem, origin: string): (instance: string, requestId: string) => PlainAnswer {
  // The body with both left empty ends with them, unless the problem has members of its own (they come after).
  const blank = JSON.stringify(problemBody(error, { origin, instance: '', requestId: '' }));
  const blanks = ',"instance":"","requestId":""}';
  if (!blank.endsWith(blanks))
    throw new Error('problemTemplate: a problem with members of its own is built by problemAnswer');
  const head = `${blank.slice(0, -blanks.length)},"instance":`;
  const { status } = PROBLEM_TYPES[error.appCode];
  const headers = Object.freeze({ 'Content-Type': PROBLEM_CONTENT_TYPE, ...error.headers });
  return (instance, requestId) => ({
    status,
    headers,
    body: `${head}${JSON.stringify(instance)},"requestId":${JSON.stringify(requestId)}}`,
  });
}

function responseOf(answer: PlainAnswer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

export function problemResponse(error: Problem, context: ProblemContext): Response {
  return responseOf(problemAnswer(error, context));
}
