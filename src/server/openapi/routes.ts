// The REST route table, read from the procedures' own meta (the one declaration of path, scope and cost).
import { forEachOpenApiProcedure, getPathParameters, getPathRegExp, normalizePath, type OpenApiMethod } from 'trpc-to-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import type { ProcedureMeta } from '@/server/api/trpc';

export interface RestRoute {
  method: OpenApiMethod;
  /** As declared, e.g. "/apps/{id}/keywords". */
  template: string;
  pattern: RegExp;
  pathParameters: string[];
  procedurePath: string;
  meta: ProcedureMeta;
}

export type RouteMatch =
  | { kind: 'found'; route: RestRoute; /** Path parameters as sent (still percent-encoded). */ params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] } | { kind: 'not-found' };

export function buildRoutes(router: AnyTRPCRouter): RestRoute[] {
  const routes: RestRoute[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path, meta }) => {
    const template = normalizePath(meta.openapi.path);
    routes.push({
      method: meta.openapi.method,
      template,
      pattern: getPathRegExp(template),
      pathParameters: getPathParameters(template),
      procedurePath: path,
      meta: meta as ProcedureMeta,
    });
  });
  return routes;
}

export function matchRoute(routes: readonly RestRoute[], method: string, path: string): RouteMatch {
  const normalized = normalizePath(path);
  const onPath = routes.filter((route) => route.pattern.test(normalized));
  const route = onPath.find((candidate) => candidate.method === method);
  if (route) return { kind: 'found', route, params: { ...route.pattern.exec(normalized)?.groups } };
  if (onPath.length) return { kind: 'method-not-allowed', allowed: [...new Set(onPath.map((candidate) => candidate.method))] };
  return { kind: 'not-found' };
}
