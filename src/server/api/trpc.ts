// tRPC: context, procedure kinds and the one authorization check shared by the dashboard and the REST facade.
import { initTRPC, TRPCError } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError, ZodRealError } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { AppError, rateLimited } from '@/server/errors/app-error';
import { PROBLEM_TYPES } from '@/server/errors/problem-types';
import { fieldErrorsFromIssues, unrepresentableTextIssues } from '@/server/errors/validation';
import { PLANS } from '@/server/services/accounts/plans';
import { chargeCredits, creditsUsed, refundCharge } from '@/server/services/metering/credits';
import type { MeteringState } from '@/server/services/metering/headers';
import { consumeDashboardCall, consumeRequest } from '@/server/services/metering/rate-limit';

export type RequiredScope = 'read' | 'write';

/**
 * Declared once per procedure: the REST route (openapi), the scope it needs and what a call costs.
 * Scope checks, metering, the OpenAPI document and the request collection all read this.
 */
export type ProcedureMeta = OpenApiMeta<{
  scope?: RequiredScope;
  credits?: number;
  /**
   * The REST answer may be replayed from the response cache (src/server/openapi/response-cache.ts) while the data it
   * is read from has not changed: 'app' when it depends only on the URL, the day, the account's apps, the data of
   * the app {id} and the store data; 'account' when only on the URL, the day and the account's apps; 'usage' when
   * only on the URL, the day, the plan and the period's charges. Never for an answer that reads anything else
   * (webhooks, keys). An answer from a live source sets `ctx.answer.freshUntil` (research).
   */
  cache?: ResponseCacheScope;
}>;

export type ResponseCacheScope = 'app' | 'account' | 'usage';

export interface Context {
  actor: Actor | null;
  /** 'rest': /api/public/v1 (Bearer credential, plan required). 'dashboard': /api/trpc and server components. */
  transport: 'rest' | 'dashboard';
  requestId: string;
  clientIp: string | null;
  now: Date;
  /** Set by the REST facade: the credit allowance of this request, updated by `metered`. */
  metering?: MeteringState;
  /** Set by the REST facade: "GET /apps/{id}", the ledger's endpoint. */
  endpoint?: string;
  /**
   * Set by the REST facade for an endpoint declared `cache`: a procedure answering from a live source says until when
   * its answer may be replayed (none: while the versions of its data are unchanged).
   */
  answer?: { freshUntil?: Date };
}

export const INSUFFICIENT_SCOPE_CHALLENGE = 'Bearer error="insufficient_scope", scope="write"';

/** Steps 2 and 3 of the request pipeline (CONTRACT): plan, then scope. Returns the error to answer with. */
export function authorize(actor: Actor, meta: ProcedureMeta | undefined, transport: Context['transport']): AppError | null {
  if (transport === 'rest' && !PLANS[actor.plan].apiAccess) {
    return new AppError('PLAN_REQUIRED', 'API access needs a paid plan; this account is on the Free tier.');
  }
  if (meta?.scope === 'write' && actor.scope === 'read-only') {
    return new AppError('INSUFFICIENT_SCOPE', 'This endpoint writes data and needs a read-write key; this key is read-only.', {
      headers: { 'WWW-Authenticate': INSUFFICIENT_SCOPE_CHALLENGE },
    });
  }
  return null;
}

const t = initTRPC
  .context<Context>()
  .meta<ProcedureMeta>()
  .create({
    errorFormatter: ({ shape, error }) => {
      const cause = error.cause;
      const problem =
        error instanceof AppError
          ? { code: error.appCode, detail: error.message, ...error.extras }
          : cause instanceof ZodError
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
 * Every dashboard call, a page's read or a call to /api/trpc (each call of a batch), counts against the caller's
 * per-minute limit: the signed-in user's, or the client address's before sign-in. The public API counts its
 * requests in `runMetered`, per key and plan.
 */
const dashboardRateLimit = t.middleware(async ({ ctx, next }) => {
  if (ctx.transport !== 'dashboard') return next();
  const decision = await consumeDashboardCall(ctx.actor?.userId ? `user:${ctx.actor.userId}` : `address:${ctx.clientIp ?? 'unknown'}`);
  if (!decision.allowed) {
    throw rateLimited(`Too many dashboard requests; retry in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
  }
  return next();
});

/**
 * Text that cannot be stored (NUL, an unpaired surrogate), anywhere in the input, is a validation error with its
 * place (400), on the public API and the dashboard alike, before any schema or service sees it.
 */
const representableInput = t.middleware(async ({ getRawInput, next }) => {
  const issues = unrepresentableTextIssues(await getRawInput());
  // As a schema's own failure: a BAD_REQUEST caused by a ZodError (the one that is an Error, as parse throws it).
  if (issues.length) throw new TRPCError({ code: 'BAD_REQUEST', message: issues[0]!.message, cause: new ZodRealError(issues) });
  return next();
});

const procedure = t.procedure.use(dashboardRateLimit).use(representableInput);

/** Sign-up and other calls that need no one signed in. */
export const publicProcedure = procedure;

/** Procedures of the public API (also used by the dashboard): an actor, a paid plan on REST, the declared scope. */
export const apiProcedure = procedure.use(({ ctx, meta, next }) => {
  if (!ctx.actor) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key.');
  const denied = authorize(ctx.actor, meta, ctx.transport);
  if (denied) throw denied;
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

function creditsExhausted(state: MeteringState, cost: number): AppError {
  const remaining = state.limit === null ? 0 : Math.max(0, state.limit - state.used);
  return new AppError('CREDITS_EXHAUSTED', `This call costs ${cost} credits and ${remaining} remain this month; the allowance resets at ${state.period.end.toISOString()}.`, {
    extras: { creditsRequired: cost, creditsRemaining: remaining, resetsAt: state.period.end.toISOString() },
  });
}

/** What the metering of one public API call needs to know. */
export interface MeteredCall {
  actor: Actor;
  metering: MeteringState;
  requestId: string;
  now: Date;
  /** "GET /apps/{id}", the ledger's endpoint. */
  endpoint: string;
}

/**
 * Steps 6 and 7 of the pipeline on the public API, after input validation: the request-rate limit, then the
 * credits of the procedure's declared cost, around `run` (the procedure, or the replay of a cached answer). A read
 * is charged once it has succeeded (one statement; a failed read costs nothing and no query). A write is charged
 * before it runs, so that a success is never left uncharged, and refunded if it then fails.
 */
export async function runMetered<T extends { ok: boolean }>(call: MeteredCall, meta: ProcedureMeta | undefined, run: () => Promise<T>): Promise<T> {
  const { actor, metering: state } = call;
  const decision = await consumeRequest(actor.plan, actor.keyId ?? `user:${actor.userId}`);
  if (!decision.allowed) {
    throw rateLimited(`Too many requests for this key; retry in ${decision.retryAfterSeconds} s.`, decision.retryAfterSeconds);
  }
  const cost = meta?.credits ?? 0;
  if (cost === 0) return run();
  if (state.limit !== null && state.limit - state.used < cost) throw creditsExhausted(state, cost);
  const charge = {
    accountId: actor.accountId,
    keyId: actor.keyId ?? null,
    userId: actor.kind === 'session' ? (actor.userId ?? null) : null,
    endpoint: call.endpoint,
    cost,
    requestId: call.requestId,
    limit: state.limit,
    now: call.now,
  };
  const charged = async () => {
    const used = await chargeCredits(charge);
    if (used === null) {
      state.used = await creditsUsed(actor.accountId, call.now);
      throw creditsExhausted(state, cost);
    }
    state.used = used;
    state.cost = cost;
  };
  if (meta?.scope === 'write') {
    await charged();
    const result = await run();
    if (!result.ok) {
      await refundCharge(actor.accountId, call.requestId);
      state.used -= cost;
      state.cost = 0;
    }
    return result;
  }
  const result = await run();
  if (result.ok) await charged();
  return result;
}

export const metered = t.middleware(({ ctx, meta, next }) => {
  const { actor, metering } = ctx;
  if (ctx.transport !== 'rest' || !metering || !actor) return next();
  return runMetered({ actor, metering, requestId: ctx.requestId, now: ctx.now, endpoint: ctx.endpoint ?? 'unknown' }, meta, next);
});

/** Account settings: only a signed-in dashboard user, never an API key. */
export const dashboardProcedure = procedure.use(({ ctx, next }) => {
  if (ctx.transport !== 'dashboard' || ctx.actor?.kind !== 'session' || !ctx.actor.userId) {
    throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard.');
  }
  return next({ ctx: { ...ctx, actor: ctx.actor, userId: ctx.actor.userId } });
});

