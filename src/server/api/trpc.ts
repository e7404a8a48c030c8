// tRPC: context, procedure kinds and the one authorization check shared by the dashboard and the REST facade.
import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ZodError } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { AppError } from '@/server/errors/app-error';
import { PROBLEM_TYPES } from '@/server/errors/problem-types';
import { fieldErrorsFromIssues } from '@/server/errors/validation';
import { PLANS } from '@/server/services/accounts/plans';

export type RequiredScope = 'read' | 'write';

/**
 * Declared once per procedure: the REST route (openapi), the scope it needs and what a call costs.
 * Scope checks, metering, the OpenAPI document and the request collection all read this.
 */
export type ProcedureMeta = OpenApiMeta<{ scope?: RequiredScope; credits?: number }>;

export interface Context {
  actor: Actor | null;
  /** 'rest': /api/public/v1 (Bearer credential, plan required). 'dashboard': /api/trpc and server components. */
  transport: 'rest' | 'dashboard';
  requestId: string;
  clientIp: string | null;
  now: Date;
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

/** Sign-up and other calls that need no one signed in. */
export const publicProcedure = t.procedure;

/** Procedures of the public API (also used by the dashboard): an actor, a paid plan on REST, the declared scope. */
export const apiProcedure = t.procedure.use(({ ctx, meta, next }) => {
  if (!ctx.actor) throw new AppError('UNAUTHORIZED', 'Sign in or send an API key.');
  const denied = authorize(ctx.actor, meta, ctx.transport);
  if (denied) throw denied;
  return next({ ctx: { ...ctx, actor: ctx.actor } });
});

/** Account settings: only a signed-in dashboard user, never an API key. */
export const dashboardProcedure = t.procedure.use(({ ctx, next }) => {
  if (ctx.transport !== 'dashboard' || ctx.actor?.kind !== 'session' || !ctx.actor.userId) {
    throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard.');
  }
  return next({ ctx: { ...ctx, actor: ctx.actor, userId: ctx.actor.userId } });
});

