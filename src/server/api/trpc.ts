// tRPC: context, meta and procedure kinds, shared by the dashboard and the REST pipeline (src/server/rest/pipeline.ts).
import { initTRPC, TRPCError } from '@trpc/server';
import { TRPC_ERROR_CODES_BY_KEY } from '@trpc/server/rpc';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError, ZodRealError } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { appErrorOf, TRPC_CODES } from './errors';
import { AppError } from '@/server/errors/app-error';
import {
  admitDashboardCall,
  admitRole,
  settingsActor,
  type OperationAccess,
} from '@/server/services/access/access-policy';
import { PROBLEM_TYPES, type AppErrorCode } from '@/server/errors/problem-types';
import { fieldErrorsFromIssues, unrepresentableTextIssues } from '@/server/errors/validation';

/**
 * Declared once per procedure: the REST route (openapi); who may call it and what a call costs (`OperationAccess`,
 * applied by the access policy, src/server/services/access/access-policy.ts, on every channel); whether its REST answer
 * may be replayed, and how a long list is paged (applied by src/server/operations/ for REST and MCP). The OpenAPI
 * document and the request collection read it too.
 */
export type ProcedureMeta = OpenApiMeta<
  OperationAccess & {
    /**
     * The REST answer may be replayed from the response cache (src/server/operations/response-cache.ts) while the data
     * it is read from has not changed: 'app' when it depends only on the URL, the day, the account's apps, the data of
     * the app {id} and the store data; 'account' when only on the URL, the day and the account's apps; 'usage' when
     * only on the URL, the day, the plan and the period's charges. Never for an answer that reads anything else
     * (webhooks, keys). An answer from a live source says, from its output, until when it stays live.
     */
    cache?: ResponseCacheScope | { scope: ResponseCacheScope; freshUntil: (output: never) => Date };
    /** Problems the procedure itself may answer, beyond those every endpoint of its kind may (the OpenAPI document lists them). */
    problems?: readonly AppErrorCode[];
    /** A long list, which REST clients may page through (src/server/operations/paging.ts). */
    paging?: ListPaging;
  }
>;

/**
 * `list`: the member of the answer that holds the list ('' when the answer is the list). `pagedBy: 'procedure'`: the
 * procedure pages it itself, from its own `page` and `pageSize` inputs, and answers `page`, `pageSize` and `total`.
 */
export interface ListPaging {
  list: string;
  pagedBy?: 'procedure';
}

export type ResponseCacheScope = 'app' | 'account' | 'usage';

export interface Context {
  actor: Actor | null;
  /**
   * 'rest': /api/public/v1; 'mcp': /api/mcp (both a Bearer credential, authorized by the access policy before the
   * procedure runs). 'dashboard': /api/trpc and server components.
   */
  transport: 'rest' | 'mcp' | 'dashboard';
  requestId: string;
  clientIp: string | null;
  now: Date;
  /** REST: the period's credits used, as the credential's statement read them (GET /usage needs no second read). */
  creditsUsed?: number;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // What the dashboard's client reads of a failure: the problem (as the REST API would answer it), and the HTTP status
    // and tRPC code of its type. A service's AppError arrives as the cause of tRPC's error.
    errorFormatter: ({ shape, error }) => {
      const appError = appErrorOf(error);
      if (appError) {
        const code = TRPC_CODES[appError.appCode];
        return {
          ...shape,
          code: TRPC_ERROR_CODES_BY_KEY[code],
          message: appError.message,
          data: {
            code,
            httpStatus: PROBLEM_TYPES[appError.appCode].status,
            problem: { code: appError.appCode, detail: appError.message, ...appError.extras },
          },
        };
      }
      const cause = error.cause;
      const problem =
        cause instanceof ZodError
          ? { code: 'VALIDATION_ERROR', detail: 'The input is not valid.', errors: fieldErrorsFromIssues(cause.issues) }
          : null;
      const internal = !problem && error.code === 'INTERNAL_SERVER_ERROR';
      return {
        ...shape,
        message: internal ? PROBLEM_TYPES.INTERNAL_ERROR.title : (problem?.detail ?? shape.message),
        data: { code: shape.data.code, httpStatus: shape.data.httpStatus, problem },
      };
    },
  });

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;

/**
 * What every procedure checks before its own work, in this order. One middleware, not one per check: tRPC copies the
 * call's options (twice or more) for each middleware it passes through, and that was a visible part of a computed
 * answer's cost (docs/benchmarks.md, "Issue 42").
 *
 * 1. Every dashboard call, a page's read or a call to /api/trpc (each call of a batch), counts against the caller's
 *    per-minute limit: the signed-in user's, or the client address's before sign-in (the access policy's; the
 *    runner of a call's steps asks it about the public API's requests).
 * 2. Text that cannot be stored (NUL, an unpaired surrogate), anywhere in the input, is a validation error with its
 *    place (400), on the public API and the dashboard alike, before any schema or service sees it.
 * 3. A member's role against the permission the procedure needs (the access policy's), for the dashboard's calls; the
 *    runner of a call's steps asks the same at its authorize step, before anything is replayed or charged.
 */
const procedureChecks = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  if (ctx.transport === 'dashboard') await admitDashboardCall(ctx.actor, ctx.clientIp);
  const issues = unrepresentableTextIssues(await getRawInput());
  // As a schema's own failure: a BAD_REQUEST caused by a ZodError (the one that is an Error, as parse throws it).
  if (issues.length)
    throw new TRPCError({ code: 'BAD_REQUEST', message: issues[0]!.message, cause: new ZodRealError(issues) });
  if (ctx.transport === 'dashboard' && ctx.actor) admitRole(ctx.actor, meta);
  return next();
});

const procedure = t.procedure.use(procedureChecks);

/** Sign-up and other calls that need no one signed in. */
export const publicProcedure = procedure;

/**
 * Procedures of the public API (also used by the dashboard): someone signed in or a credential. On REST and MCP the
 * runner of a call's steps (src/server/operations/runner.ts) has authorized the call (plan, scope) and meters it, from
 * the procedure's meta.
 */
export const apiProcedure = procedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key.');
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/**
 * Account settings on both surfaces (keys, webhook endpoints): a signed-in user of the account, with the dashboard's
 * cookie or, on the public API, a session token; never an API key (the access policy's `settingsActor`, which the
 * runner applies at its authorize step from meta `scope: 'admin'`, too).
 */
export const settingsProcedure = procedure.use(({ ctx, next }) => {
  const actor = settingsActor(ctx.actor);
  return next({ ctx: { ...ctx, actor, userId: actor.userId } });
});

/** Dashboard-only settings: only a signed-in dashboard user, never an API key. */
export const dashboardProcedure = procedure.use(({ ctx, next }) => {
  if (ctx.transport !== 'dashboard' || ctx.actor?.kind !== 'session' || !ctx.actor.userId) {
    throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard.');
  }
  return next({ ctx: { ...ctx, actor: ctx.actor, userId: ctx.actor.userId } });
});
