// tRPC: context, meta and procedure kinds, shared by the dashboard and the REST pipeline (src/server/rest/pipeline.ts).
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { appErrorOf, dashboardErrorOf } from './errors';
import { AppError } from '@/server/errors/app-error';
import { settingsActor, type OperationAccess } from '@/server/services/access/access-policy';
import { PROBLEM_TYPES, type AppErrorCode } from '@/server/errors/problem-types';
import { fieldErrorsFromIssues } from '@/server/errors/validation';
import type { DataFreshness } from './figures';

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
    /** The MCP tool's name when it is not its procedure path's (ChatGPT's connectors call `search` and `fetch`). */
    tool?: string;
    /**
     * Every call asks a store itself (live research, adding an app or a competitor by its store address): the MCP
     * tool's `openWorldHint`. A read of stored data is not, though its first call in a new storefront observes it.
     */
    asksStore?: true;
    /**
     * The call starts work that runs in the background (an export): REST answers 202 Accepted, with what was started,
     * and the OpenAPI document declares 202 in place of 200.
     */
    accepted?: true;
  }
>;

/** The status of a REST answer that succeeded: 202 for a call whose work runs in the background, else 200. */
export const successStatus = (meta: { accepted?: true }): 200 | 202 => (meta.accepted ? 202 : 200);

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
  /**
   * A call's steps before its procedure, as the runner of a call's steps (src/server/operations/runner.ts) takes them
   * for the channel: 'taken' on REST and MCP, whose runner took them before it called the procedure; the dashboard's
   * channel gives the runner's steps of one call, which every procedure runs first, for each call of a batch.
   */
  steps: 'taken' | ((call: { access: ProcedureMeta | undefined; input: unknown }) => Promise<void>);
  /**
   * REST and MCP: what the answer says of itself beside its output. A JSON array has no member for its freshness, so
   * a list's procedure notes it here; the channel puts it in headers (REST) or beside the items (MCP).
   */
  answerNotes?: AnswerNotes;
  /**
   * A test key's X-Test-Trigger that chooses the outcome of what the call starts, rather than the call's own answer
   * (the sending of a reply draft in a sandbox's simulated store account); the runner pulled every other kind.
   */
  testTrigger?: string;
}

interface AnswerNotes {
  freshness?: DataFreshness;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    // What the dashboard's client reads of a failure: the problem (as the REST API would answer it), and the HTTP status
    // and tRPC code of its type. A service's AppError arrives as the cause of tRPC's error.
    errorFormatter: ({ shape, error }) => {
      const appError = appErrorOf(error);
      if (appError) return { ...shape, ...dashboardErrorOf(appError) };
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
 * A dashboard call's steps before its procedure (the runner's, given by the channel in the context). One middleware,
 * not one per step: tRPC copies the call's options (twice or more) for each middleware it passes through, and that was
 * a visible part of a computed answer's cost (docs/benchmarks.md, "Issue 42").
 */
const callSteps = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  if (ctx.steps !== 'taken') await ctx.steps({ access: meta, input: await getRawInput() });
  return next();
});

const procedure = t.procedure.use(callSteps);

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
