// Every REST procedure declares its scope and cost, which the REST pipeline applies.
import { describe, expect, it } from 'vitest';
import { appRouter } from './root';
import type { ProcedureMeta } from './trpc';

const SPEC_COSTS: Record<string, number> = {
  'GET /apps': 1,
  'GET /apps/{id}': 1,
  'GET /apps/{id}/keywords': 1,
  'POST /apps/{id}/keywords': 2,
  'GET /apps/{id}/aso-score': 1,
  'GET /apps/{id}/opportunities': 2,
  'GET /apps/{id}/competitors': 1,
  'POST /apps/{id}/competitors': 2,
  'GET /apps/{id}/keywords/research': 8,
  'GET /apps/{id}/reviews': 1,
  'GET /apps/{id}/reviews/insights': 1,
  'GET /apps/{id}/keywords/{keywordId}/history': 1,
  'GET /apps/{id}/keywords/{keywordId}/metrics-history': 1,
  'GET /apps/{id}/category-rank': 1,
  'GET /apps/{id}/rating-history': 1,
  'GET /apps/{id}/metadata': 1,
  'GET /apps/{id}/metadata/changelog': 1,
  'GET /apps/{id}/keyword-spy': 1,
  'GET /usage': 0,
  // CONTRACT "Additions in v1".
  'POST /apps': 2,
};

describe('REST procedures', () => {
  // At run time _def.procedures is the flat record of every procedure by dotted path.
  const procedures = Object.values(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta; middlewares: unknown[] } }>);
  const rest = procedures.filter((procedure) => procedure._def.meta?.openapi);

  it('are exactly the 19 endpoints of SPEC.md and CONTRACT’s POST /apps, with their costs and scopes', () => {
    const declared = Object.fromEntries(rest.map((procedure) => {
      const meta = procedure._def.meta!;
      return [`${meta.openapi!.method} ${meta.openapi!.path}`, meta.credits];
    }));
    expect(declared).toEqual(SPEC_COSTS);
    for (const procedure of rest) {
      const meta = procedure._def.meta!;
      expect(meta.scope, meta.openapi!.path).toBe(meta.openapi!.method === 'GET' ? 'read' : 'write');
    }
  });

});
