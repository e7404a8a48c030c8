// The operation table: every public operation, as trpc-to-openapi exposes the procedures, read from their own meta (the
// one declaration of path, scope, cost, paging and caching) and their own input schema. REST serves each at its path;
// the MCP server makes a tool of each (its settings operations aside). Both run a call through ./runner.ts.
import {
  forEachOpenApiProcedure,
  getInputOutputParsers,
  getPathParameters,
  getPathRegExp,
  normalizePath,
  type OpenApiMethod,
} from 'trpc-to-openapi';
import type { AnyTRPCRouter } from '@trpc/server';
import { ZodObject, ZodOptional, type ZodType } from 'zod';
import { createCaller } from '@/server/api/root';
import type { Context, ListPaging, ProcedureMeta } from '@/server/api/trpc';

/** The public API's version: in its path, its OpenAPI document and the MCP server's name. */
export const API_VERSION = 'v1';
/** Where the public REST surface is served: every route's template is under it. */
export const PUBLIC_API_BASE_PATH = `/api/public/${API_VERSION}`;

export interface Operation {
  method: OpenApiMethod;
  /** As declared, e.g. "/apps/{id}/keywords". */
  template: string;
  pattern: RegExp;
  pathParameters: string[];
  /** The procedure's dotted path in the router, e.g. "apps.get". */
  procedurePath: string;
  meta: ProcedureMeta;
  /** The procedure's own input schema. */
  input: ZodType;
  /** Every member of the input is in the path or optional: the request may come without a body (a revoke, a DELETE). */
  bodyOptional: boolean;
  /** A list the channel cuts to the page asked for (`page`, `pageSize`); null when whole, or paged by the procedure. */
  pagedList: ListPaging | null;
}

export type RouteMatch =
  | {
      kind: 'found';
      route: Operation /** Path parameters as sent (still percent-encoded). */;
      params: Record<string, string>;
    }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export function buildOperations(router: AnyTRPCRouter): Operation[] {
  const routes: Operation[] = [];
  forEachOpenApiProcedure(router._def.procedures, ({ path, meta, procedure }) => {
    const template = normalizePath(meta.openapi.path);
    const input = getInputOutputParsers(procedure).inputParser as ZodType;
    const pathParameters = getPathParameters(template);
    routes.push({
      method: meta.openapi.method,
      template,
      pattern: getPathRegExp(template),
      pathParameters,
      procedurePath: path,
      meta: meta as ProcedureMeta,
      input,
      pagedList: pagedListOf(meta as ProcedureMeta),
      bodyOptional: Object.entries(shapeOf(input)).every(
        ([name, member]) => pathParameters.includes(name) || member.safeParse(undefined).success,
      ),
    });
  });
  return routes;
}

function pagedListOf({ paging }: ProcedureMeta): ListPaging | null {
  return paging && paging.pagedBy !== 'procedure' ? paging : null;
}

/** The members of an object input (an optional object's too); none for another kind. */
function shapeOf(input: ZodType): Record<string, ZodType> {
  const object = input instanceof ZodOptional ? input.unwrap() : input;
  return object instanceof ZodObject ? (object.shape as Record<string, ZodType>) : {};
}

/**
 * The route for `method` at `path`. HEAD is the GET without its body (the HTTP layer drops the body): it matches the
 * GET's route, and is checked and charged as that GET. A path that exists with other methods answers the methods it
 * allows, HEAD with GET and OPTIONS always, as both a 405 and an OPTIONS name them in `Allow`.
 */
export function matchRoute(routes: readonly Operation[], method: string, path: string): RouteMatch {
  const normalized = normalizePath(path);
  const onPath = (bySlashes(routes).get(slashesIn(normalized)) ?? []).filter((route) => route.pattern.test(normalized));
  const wanted = method === 'HEAD' ? 'GET' : method;
  const route = onPath.find((candidate) => candidate.method === wanted);
  if (route) return { kind: 'found', route, params: decodedParams(route.pattern.exec(normalized)?.groups) };
  if (onPath.length) {
    const methods = new Set(onPath.map((candidate) => candidate.method));
    const allowed = [...methods].flatMap((each) => (each === 'GET' ? ['GET', 'HEAD'] : [each]));
    return { kind: 'method-not-allowed', allowed: [...allowed, 'OPTIONS'] };
  }
  return { kind: 'not-found' };
}

/**
 * A path's parameters as sent, percent-decoded (RFC 3986: a client may encode any character of a segment, as
 * `app%3A…` for fetch's `app:…`); one that does not decode is kept as sent, for its validation to refuse.
 */
function decodedParams(groups: Record<string, string> | undefined): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(groups ?? {})) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      params[name] = value;
    }
  }
  return params;
}

/**
 * The routes by the number of slashes in their template, in the table's order. A template's pattern matches no slash
 * but its own (a path parameter is one segment, `[^/]+`), so only the routes of a path's count can match it: a request
 * tests those few patterns, not the whole table.
 */
const routesBySlashes = new WeakMap<readonly Operation[], Map<number, Operation[]>>();

function bySlashes(routes: readonly Operation[]): Map<number, Operation[]> {
  let index = routesBySlashes.get(routes);
  if (!index) {
    index = new Map();
    for (const route of routes) {
      const count = slashesIn(route.template);
      index.set(count, [...(index.get(count) ?? []), route]);
    }
    routesBySlashes.set(routes, index);
  }
  return index;
}

function slashesIn(path: string): number {
  let count = 0;
  for (let at = path.indexOf('/'); at !== -1; at = path.indexOf('/', at + 1)) count++;
  return count;
}

type ProcedureCall = (input: unknown) => Promise<unknown>;

/** Runs the route's procedure through a tRPC caller (its own input parsing and middlewares included). */
export function callProcedure(route: Operation, context: Context, input: unknown): Promise<unknown> {
  const caller = createCaller(context) as unknown as Record<string, Record<string, ProcedureCall>>;
  const [group, name] = route.procedurePath.split('.') as [string, string];
  return caller[group]![name]!(input);
}
