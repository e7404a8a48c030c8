// The published contract: generated from the procedures, complete, and clean under Redocly's recommended rules.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { PROBLEM_CONTENT_TYPE } from '@/server/errors/problem-response';
import { buildOpenApiDocument } from './document';
import { buildRoutes } from './routes';

// Not localhost: the served document carries the request's origin, which Redocly would flag only in development.
const ORIGIN = 'https://api.asoanalytics.test';

type Operation = Record<string, unknown> & { responses: Record<string, { content?: Record<string, unknown>; headers?: Record<string, unknown> }>; parameters?: { name: string; in: string }[] };

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument(ORIGIN) as { openapi: string; info: { version: string }; paths: Record<string, Record<string, Operation>> };

  it('lints clean with the recommended rules of @redocly/openapi-core', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: `${ORIGIN}/api/public/v1/openapi.json`, config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message}`)).toEqual([]);
  });

  it('has every REST route, with its cost, security, problem responses and credit headers', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('v1');
    const routes = buildRoutes(appRouter);
    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, operation]) => ({ path, method, operation })));
    expect(operations).toHaveLength(routes.length);
    for (const route of routes) {
      const operation = document.paths[route.template]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.template}`).toBeDefined();
      expect(operation!['x-credits']).toBe(route.meta.credits ?? 0);
      expect(operation!.description).toContain(`Costs ${route.meta.credits ?? 0} credit`);
      expect(operation!.security).toEqual([{ bearerAuth: [] }]);
      expect(operation!.summary).toBeTruthy();
      expect(operation!.tags).toHaveLength(1);
      expect(Object.keys(operation!.responses['200']!.headers!)).toEqual(expect.arrayContaining(['X-Credits-Remaining', 'X-Credits-Cost', 'X-Request-Id']));
      for (const status of ['401', '403', '404', '429', '500']) {
        expect(Object.keys(operation!.responses[status]!.content!), `${route.template} ${status}`).toEqual([PROBLEM_CONTENT_TYPE]);
      }
      if ((route.meta.credits ?? 0) > 0) expect(operation!.responses['402']).toBeDefined();
      if (route.method === 'POST') {
        expect(operation!.parameters!.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key')).toBe(true);
        expect(Object.keys(operation!.responses).sort()).toEqual(expect.arrayContaining(['400', '413', '415', '422']));
      }
    }
  });
});
