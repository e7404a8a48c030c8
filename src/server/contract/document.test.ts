// The published contract: generated from the procedures, complete, and clean under Redocly's recommended-strict rules
// and Spectral's spectral:oas ruleset.
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Document as SpectralDocument, Spectral, type RulesetDefinition } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { describe, expect, it } from 'vitest';
import { appRouter } from '@/server/api/root';
import { PROBLEM_CONTENT_TYPE } from '@/server/errors/problem-response';
import { PROBLEM_TYPES, problemTypeBySlug } from '@/server/errors/problem-types';
import { EVENT_TYPES } from '@/server/services/events/event-kinds';
import { buildOpenApiDocument } from './document';
import { LATEST_VERSION, ORIGINAL_VERSION } from '@/server/domain/api-versions';
import { buildOperations } from '@/server/operations/routes';
import { successStatus } from '@/server/api/trpc';

// Not localhost: the served document carries the request's origin, which Redocly would flag only in development.
const ORIGIN = 'https://api.asoanalytics.test';

type Json = Record<string, unknown>;
type Operation = Json & {
  responses: Record<string, Json>;
  parameters?: Json[];
  requestBody?: { content: Record<string, { schema: Json }> };
};

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument(ORIGIN) as Json & {
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, Operation>>;
  };
  /** A `$ref` to this document's components, followed. */
  const resolve = <T = Json>(node: unknown): T => {
    const ref = (node as Json).$ref;
    if (typeof ref !== 'string') return node as T;
    return ref
      .slice(2)
      .split('/')
      .reduce<unknown>((value, segment) => (value as Json)[segment], document) as T;
  };

  // Generators send what the document shows (openapi-to-postman, hence Portman, reads `example`, not `examples`):
  // every parameter and every request body shows an example, and the request made of them all passes the
  // procedure's own schema, as the server checks it.
  it('gives every parameter and request body an example, and a request made of them all is valid', () => {
    const routes = buildOperations(appRouter);
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const label = `${method.toUpperCase()} ${path}`;
        const input: Json = {};
        for (const parameter of (operation.parameters ?? []).map((each) => resolve(each))) {
          const example = parameter.example ?? (parameter.schema as Json | undefined)?.example;
          expect(example, `${label}: ${String(parameter.name)}`).toBeDefined();
          if (parameter.in === 'path' || parameter.in === 'query')
            input[String(parameter.name)] = parameter.in === 'query' ? String(example) : example;
        }
        for (const media of Object.values(operation.requestBody?.content ?? {}) as (Json & { example?: Json })[]) {
          expect(media.example, label).toBeDefined();
          Object.assign(input, media.example);
        }
        const route = routes.find(
          (candidate) => candidate.template === path && candidate.method === method.toUpperCase(),
        )!;
        const parsed = route.input.safeParse(input);
        expect(parsed.success, `${label}: ${JSON.stringify(input)} → ${parsed.error?.message}`).toBe(true);
      }
    }
  });

  // Issue 65: one document per dated version; each lints clean, and the original's says the original meanings.
  it('describes each dated version, the original with its own meanings', () => {
    const original = buildOpenApiDocument(ORIGIN, ORIGINAL_VERSION) as Json & {
      components: { schemas: Record<string, { properties: Record<string, Json>; required?: string[] }> };
    };
    expect(original['x-api-version']).toBe(ORIGINAL_VERSION);
    expect(document['x-api-version']).toBe(LATEST_VERSION);
    expect(original.components.schemas.KeywordListItem!.properties.rankDelta).toMatchObject({ type: 'integer' });
    expect(original.components.schemas.KeywordResearch!.required).toContain('yourRank');
    const newest = document.components as { schemas: Record<string, { required?: string[] }> };
    expect(newest.schemas.KeywordResearch!.required).not.toContain('yourRank');
  });

  it('lints the original version’s document clean with Redocly’s recommended-strict rules', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({
      source: JSON.stringify(buildOpenApiDocument(ORIGIN, ORIGINAL_VERSION)),
      absoluteRef: `${ORIGIN}/api/public/v1/openapi.json?version=${ORIGINAL_VERSION}`,
      config,
    });
    expect(problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual([]);
  });

  it('lints the original version’s document clean with Spectral’s recommended rules too', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const findings = await spectral.run(
      new SpectralDocument(
        JSON.stringify(buildOpenApiDocument(ORIGIN, ORIGINAL_VERSION), null, 2),
        Parsers.Json,
        'openapi.json',
      ),
    );
    expect(findings.map((finding) => `${finding.code}: ${finding.message} at ${finding.path.join('.')}`)).toEqual([]);
  });

  it('lints clean with Redocly’s recommended-strict rules', async () => {
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: `${ORIGIN}/api/public/v1/openapi.json`,
      config,
    });
    expect(
      problems.map(
        (problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`,
      ),
    ).toEqual([]);
  });

  it('lints clean with Spectral’s spectral:oas ruleset (its recommended rules), warnings and hints included', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as RulesetDefinition, 'recommended']] });
    const findings = await spectral.run(
      new SpectralDocument(JSON.stringify(document, null, 2), Parsers.Json, 'openapi.json'),
    );
    expect(findings.map((finding) => `${finding.code}: ${finding.message} at ${finding.path.join('.')}`)).toEqual([]);
  });

  it('has every REST route, with its cost, scope, security, problem responses and credit headers', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('v1');
    const routes = buildOperations(appRouter);
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item));
    expect(operations).toHaveLength(routes.length);
    for (const route of routes) {
      const label = `${route.method} ${route.template}`;
      const operation = document.paths[route.template]?.[route.method.toLowerCase()];
      expect(operation, label).toBeDefined();
      expect(operation!['x-credits']).toBe(route.meta.credits ?? 0);
      expect(operation!['x-scope']).toBe(route.meta.scope);
      expect(operation!.description).toContain(`Costs ${route.meta.credits ?? 0} credit`);
      expect(operation!.security).toEqual([{ bearerAuth: [] }]);
      expect(operation!.externalDocs).toEqual(expect.objectContaining({ url: `${ORIGIN}/docs` }));
      expect(operation!.summary).toBeTruthy();
      expect(operation!.tags).toHaveLength(1);
      expect(Object.keys(resolve(operation!.responses[successStatus(route.meta)]).headers as Json)).toEqual(
        expect.arrayContaining(['X-Credits-Remaining', 'X-Credits-Cost', 'X-Request-Id']),
      );
      for (const status of ['401', '403', '404', '429', '500']) {
        expect(Object.keys(resolve(operation!.responses[status]).content as Json), `${label} ${status}`).toEqual([
          PROBLEM_CONTENT_TYPE,
        ]);
      }
      if ((route.meta.credits ?? 0) > 0) expect(operation!.responses['402']).toBeDefined();
      for (const parameter of (operation!.parameters ?? []).map((item) => resolve(item))) {
        expect(parameter.description, `${label} ${String(parameter.name)}`).toBeTruthy();
        expect(
          parameter.example ?? (parameter.schema as Json).example,
          `${label} ${String(parameter.name)}`,
        ).toBeDefined();
      }
      if (route.method === 'POST') {
        expect(operation!.parameters!.some((parameter) => resolve(parameter).name === 'Idempotency-Key')).toBe(true);
        expect(Object.keys(operation!.responses).sort()).toEqual(expect.arrayContaining(['400', '413', '415', '422']));
      }
      // Every media type the API accepts for a JSON body is declared; requests stay closed to unknown members. A POST
      // whose input is all in its path (a revoke) has no body to declare.
      if (route.method !== 'GET' && !(route.bodyOptional && !operation!.requestBody)) {
        expect(Object.keys(operation!.requestBody!.content), label).toEqual([
          'application/json',
          'text/json',
          'application/*+json',
        ]);
        expect(operation!.requestBody!.content['application/json']!.schema.additionalProperties, label).toBe(false);
      }
    }
  });

  it('keeps every response open to members added later, as v1 promises', () => {
    const closed: string[] = [];
    const seen = new Set<unknown>();
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object' || seen.has(node)) return;
      seen.add(node);
      const schema = resolve(node);
      if (schema !== node) return walk(schema, `${at} → ${String((node as Json).$ref)}`);
      if ((node as Json).additionalProperties === false) closed.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses))
          walk(resolve(response).content, `${method} ${path} ${status}`);
      }
    }
    expect(closed).toEqual([]);
  });

  it('publishes each problem kind as data: a `code` to switch on, a schema, a shared response and an example', () => {
    const schemas = (document.components as { schemas: Record<string, Json> }).schemas;
    const problem = schemas.Problem as {
      properties: { code: { enum: string[] } };
      'x-problem-types': { code: string; status: number; schema: string }[];
    };
    const kinds = problem['x-problem-types'];
    expect(problem.properties.code.enum).toEqual(kinds.map((kind) => kind.code));
    for (const kind of kinds) {
      const type = PROBLEM_TYPES[problemTypeBySlug(kind.code)!.code];
      expect(kind.status).toBe(type.status);
      expect(resolve({ $ref: kind.schema })).toBeDefined();
    }
    const responses = (
      document.components as {
        responses: Record<string, { content: Record<string, { examples: Record<string, { value: Json }> }> }>;
      }
    ).responses;
    for (const response of Object.values(responses)) {
      for (const [slug, example] of Object.entries(response.content[PROBLEM_CONTENT_TYPE]!.examples)) {
        expect(example.value).toMatchObject({
          code: slug,
          status: PROBLEM_TYPES[problemTypeBySlug(slug)!.code].status,
          type: `${ORIGIN}/docs/problems/${slug}`,
        });
      }
    }
  });

  it('names the public origin as its server, or a relative URL when the origin is this machine’s own', () => {
    expect(document.servers).toEqual([{ url: `${ORIGIN}/api/public/v1` }]);
    for (const local of ['http://localhost:3999', 'http://127.0.0.1:3000', 'http://[::1]:3000']) {
      expect(buildOpenApiDocument(local).servers).toEqual([{ url: '/api/public/v1' }]);
    }
  });

  it('describes every event kind a webhook endpoint receives: payload, headers, signature and example', () => {
    const webhooks = document.webhooks as Record<
      string,
      {
        post: Operation & {
          requestBody: { content: Record<string, { schema: Json; examples: Record<string, { value: Json }> }> };
        };
      }
    >;
    expect(Object.keys(webhooks)).toEqual([...EVENT_TYPES]);
    for (const [kind, { post }] of Object.entries(webhooks)) {
      expect((post.parameters ?? []).map((parameter) => parameter.name)).toEqual([
        'X-Service-Event',
        'X-Service-Delivery',
        'X-Service-Signature',
      ]);
      expect(post.security).toEqual([{ webhookSignature: [] }]);
      const media = post.requestBody.content['application/json']!;
      expect(resolve<{ properties: { type: Json } }>(media.schema).properties.type).toEqual({ const: kind });
      expect(Object.values(media.examples)[0]!.value).toMatchObject({ type: kind });
    }
    expect(document['x-webhook-signature']).toMatchObject({
      header: 'X-Service-Signature',
      algorithm: 'HMAC-SHA256',
      toleranceSeconds: 300,
    });
  });

  it('says on each storefront-scoped read that a storefront new to the app is observed on its first call, in the store’s time', () => {
    type Parameter = { name?: string; description?: string; $ref?: string };
    const paths = document.paths as Record<
      string,
      Record<
        string,
        {
          parameters?: Parameter[];
          responses: Record<string, { content: Record<string, { examples: Record<string, { summary: string }> }> }>;
        }
      >
    >;
    const shared = (document.components as { parameters: Record<string, Parameter> }).parameters;
    const resolved = (parameter: Parameter) =>
      parameter.$ref ? shared[parameter.$ref.split('/').at(-1)!]! : parameter;
    const scoped = [
      '/apps/{id}/metadata',
      '/apps/{id}/metadata/changelog',
      '/apps/{id}/aso-score',
      '/apps/{id}/category-rank',
      '/apps/{id}/keyword-spy',
      '/apps/{id}/competitors',
      '/apps/{id}/opportunities',
      '/apps/{id}/keywords',
    ];
    for (const path of scoped) {
      const operation = paths[path]!.get!;
      expect(
        operation.parameters?.map(resolved).find((parameter) => parameter.name === 'country')?.description,
        path,
      ).toMatch(/observed during this call/);
      expect(operation.responses['200']!.content['application/json']!.examples.demo!.summary, path).toMatch(
        /may take the store’s time/,
      );
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(['403', '404', '503']));
    }
  });

  it('states each plan’s request rate, credits and caps as data', () => {
    expect(document['x-plans']).toContainEqual({
      plan: 'pro',
      apiAccess: true,
      requestsPerMinute: 1200,
      monthlyCredits: 5000,
      trackedApps: 10,
      trackedKeywords: 1000,
      storefrontsPerApp: 10,
      competitorsPerApp: 20,
    });
  });
});
