// The credits a call costs, as its procedure declares them (its meta's `credits`), for a screen that says the cost
// before the call is made.
import type { AnyTRPCProcedure } from '@trpc/server';
import { appRouter } from './root';
import type { ProcedureMeta } from './trpc';

/** The credits of the procedure at `path` ("keywords.research"); 0 for one that declares none. */
export function declaredCredits(path: string): number {
  let entry: unknown = appRouter._def.record;
  for (const key of path.split('.')) entry = (entry as Record<string, unknown> | undefined)?.[key];
  if (typeof entry !== 'function' || !('_def' in entry)) throw new Error(`No procedure at ${path}.`);
  const credits = ((entry as AnyTRPCProcedure)._def.meta as ProcedureMeta | undefined)?.credits;
  return typeof credits === 'number' ? credits : 0;
}
