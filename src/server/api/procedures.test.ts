// Every REST procedure declares its scope and cost, which the REST pipeline applies.
import { describe, expect, it } from 'vitest';
import { appRouter } from './root';
import type { ProcedureMeta } from './trpc';
import { permissionOf } from '@/server/services/access/access-policy';

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
  // Issue 66: search and fetch over the account's own apps and keywords (ChatGPT's connectors' tools), as GET /apps
  // and GET /apps/{id} cost.
  'GET /search': 1,
  'GET /search/{id}': 1,
  // Issue 67: replies to the reviews of owned apps. A draft costs a credit as a write call; approving (a member's act,
  // a settings procedure) and discarding are free, and so is the sending: a store's refusal never costs.
  'POST /apps/{id}/reviews/{reviewId}/reply-drafts': 1,
  'GET /apps/{id}/reply-drafts': 1,
  'GET /apps/{id}/reply-drafts/{draftId}': 1,
  'POST /apps/{id}/reply-drafts/{draftId}/discard': 0,
  'POST /apps/{id}/reply-drafts/{draftId}/approve': 0,
  // Issue 68: exports, charged by their rows as they are asked for (a credit a thousand), not by the call.
  'POST /exports': 0,
  'GET /exports': 0,
  'GET /exports/{exportId}': 0,
  'POST /exports/{exportId}/cancel': 0,
  // Issue 25: the settings procedures, for a session token (scope 'admin'), free of credits.
  'GET /keys': 0,
  'POST /keys': 0,
  'GET /keys/{keyId}': 0,
  'PATCH /keys/{keyId}': 0,
  'POST /keys/{keyId}/roll': 0,
  'POST /keys/{keyId}/revoke': 0,
  'GET /webhook-endpoints': 0,
  'POST /webhook-endpoints': 0,
  'GET /webhook-endpoints/{endpointId}': 0,
  'PATCH /webhook-endpoints/{endpointId}': 0,
  'DELETE /webhook-endpoints/{endpointId}': 0,
  'POST /webhook-endpoints/{endpointId}/rotate-secret': 0,
  'POST /webhook-endpoints/{endpointId}/test-events': 0,
  'GET /webhook-endpoints/{endpointId}/deliveries': 0,
  'POST /webhook-deliveries/{deliveryId}/redeliver': 0,
};

const SETTINGS_PATHS = /^\/(keys|webhook-endpoints|webhook-deliveries)(\/|$)|\/reply-drafts\/\{draftId\}\/approve$/;

describe('REST procedures', () => {
  // At run time _def.procedures is the flat record of every procedure by dotted path.
  const procedures = Object.values(
    appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta; middlewares: unknown[] } }>,
  );
  const rest = procedures.filter((procedure) => procedure._def.meta?.openapi);

  it('are exactly the 19 endpoints of SPEC.md, CONTRACT’s POST /apps, search and fetch, replies to reviews, exports, and the settings endpoints, with their costs and scopes', () => {
    const declared = Object.fromEntries(
      rest.map((procedure) => {
        const meta = procedure._def.meta!;
        return [`${meta.openapi!.method} ${meta.openapi!.path}`, meta.credits];
      }),
    );
    expect(declared).toEqual(SPEC_COSTS);
    for (const procedure of rest) {
      const meta = procedure._def.meta!;
      // An export reads data: a read-only key may ask for one.
      expect(meta.scope, meta.openapi!.path).toBe(
        SETTINGS_PATHS.test(meta.openapi!.path)
          ? 'admin'
          : meta.openapi!.method === 'GET' || meta.openapi!.path.startsWith('/exports')
            ? 'read'
            : 'write',
      );
    }
  });
});

describe('every procedure', () => {
  const named = Object.entries(
    appRouter._def.procedures as unknown as Record<string, { _def: { meta?: ProcedureMeta } }>,
  );

  it('says what a member’s role must allow: its own permission, or a public read or write of the data', () => {
    const undeclared = named.filter(([, procedure]) => {
      const meta = procedure._def.meta;
      return !meta?.permission && !(meta?.openapi && (meta.scope === 'read' || meta.scope === 'write'));
    });
    expect(undeclared.map(([path]) => path)).toEqual([]);
  });

  it('that changes the data needs data.write; the settings’ need their own', () => {
    for (const [path, procedure] of named) {
      const meta = procedure._def.meta;
      if (meta?.scope === 'admin')
        expect(meta.permission, path).toMatch(/^(keys|webhooks)\.manage$|^replies\.approve$/);
      if (/^(apps|keywords|competitors)\.(remove|add|create|addStorefront)$|^account\.resetTestData$/.test(path)) {
        expect(permissionOf(meta), path).toBe('data.write');
      }
    }
  });
});
