// The MCP server's tools, generated from the procedures that serve REST (never written one by one): one tool per public
// data operation (the route table of src/server/operations/routes.ts less the settings operations, `scope: 'admin'`:
// agents never manage keys, webhook endpoints or billing). Each tool's name comes from its procedure's path, its title
// and description from its OpenAPI summary and description with the credit cost, its input schema from the procedure's
// zod input (with `page`/`pageSize` where REST pages the list, and `idempotencyKey` on a write), its output schema from
// the procedure's zod output, and its annotations and `_meta` from its meta.
import { getInputOutputParsers } from 'trpc-to-openapi';
import { z, type ZodType } from 'zod';
import type { Tool as McpToolDefinition } from '@modelcontextprotocol/server';
import type { AnyTRPCRouter } from '@trpc/server';
import { dataFreshness } from '@/server/api/figures';
import { DEFAULT_PAGE_SIZE, MAX_PAGE, MAX_PAGE_SIZE } from '@/server/operations/paging';
import { buildOperations, type Operation } from '@/server/operations/routes';

type JsonSchema = Record<string, unknown>;

/** A tool as `tools/list` answers it, with its cost, scope and REST twin in `_meta`. */
export type ToolDefinition = McpToolDefinition & {
  _meta: { credits: number; scope: 'read' | 'write'; restEndpoint: string };
};

export interface Tool {
  definition: ToolDefinition;
  route: Operation;
  /** The REST answer is a JSON array: the tool's structured content holds it as `items` (MCP's is an object). */
  wrapsList: boolean;
  /** A list about one app: its data's `freshness` is beside the items. */
  listsFreshness: boolean;
}

/** The argument a write takes for its idempotency key (REST's Idempotency-Key header). */
export const IDEMPOTENCY_ARGUMENT = 'idempotencyKey';

/** `apps.asoScore` → `apps_aso_score`: snake case, as agents' tool names usually are. */
export function toolName(procedurePath: string): string {
  return procedurePath.replace(/\./g, '_').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Applies the `override` some schemas carry in their meta (an integer read from a query string documents as an integer). */
function applyMetaOverride(context: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  const meta = (context.zodSchema as { meta?: () => { override?: unknown } | undefined }).meta?.();
  if (typeof meta?.override === 'function') (meta.override as (context: { jsonSchema: JsonSchema }) => void)(context);
}

function jsonSchemaOf(schema: ZodType, io: 'input' | 'output'): JsonSchema {
  const generated = z.toJSONSchema(schema, { io, unrepresentable: 'any', override: applyMetaOverride }) as JsonSchema;
  delete generated.$schema;
  // A named schema (meta `id`) is generated as a reference at the root; MCP wants the root to be the object itself.
  const reference = typeof generated.$ref === 'string' ? /^#\/\$defs\/(.+)$/.exec(generated.$ref)?.[1] : undefined;
  if (reference === undefined) return generated;
  const { [reference]: root, ...others } = (generated.$defs ?? {}) as Record<string, JsonSchema>;
  return { ...root, ...(Object.keys(others).length ? { $defs: others } : {}) };
}

/**
 * A list's schema as the object MCP's structured content must be: `{ items }`, its definitions kept at the root; a read
 * about one app has its data's `freshness` beside the items (REST says it in headers).
 */
function listObject(list: JsonSchema, withFreshness: boolean): JsonSchema {
  const { $defs, ...items } = list;
  const freshness = withFreshness ? jsonSchemaOf(dataFreshness, 'output') : undefined;
  return {
    type: 'object',
    properties: { items, ...(freshness && { freshness }) },
    required: ['items'],
    additionalProperties: false,
    ...($defs ? { $defs } : {}),
  };
}

const pageArguments: Record<string, JsonSchema> = {
  page: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE,
    description: `Page number, from 1. With it (or with \`pageSize\`) the result is that page of the list; without either, the whole list. A page past the last one is empty.`,
  },
  pageSize: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: `Items per page; default ${DEFAULT_PAGE_SIZE} when \`page\` is sent alone.`,
  },
};

const idempotencyArgument: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7e]+$',
  description:
    'Optional. A key of your choosing (1 to 255 visible ASCII characters): a call repeated with the same key and arguments within 24 hours is answered as the first was, and charged once.',
};

function costText(credits: number): string {
  if (credits === 0) return 'Free: costs no credits.';
  return `Costs ${credits} credit${credits === 1 ? '' : 's'} per successful call, from the account's monthly allowance (and the key's budget, if it has one); refusals and failures are free.`;
}

function toolOf(route: Operation, router: AnyTRPCRouter): Tool {
  const { meta } = route;
  const scope = meta.scope === 'write' ? 'write' : 'read';
  const credits = meta.credits ?? 0;
  const procedure = (router._def.procedures as Record<string, Parameters<typeof getInputOutputParsers>[0]>)[
    route.procedurePath
  ]!;
  const output = jsonSchemaOf(getInputOutputParsers(procedure).outputParser as ZodType, 'output');
  const wrapsList = output.type === 'array';
  const listsFreshness = wrapsList && route.method === 'GET' && meta.appInput !== undefined;
  const input = jsonSchemaOf(route.input, 'input');
  const properties = { ...(input.properties as Record<string, JsonSchema> | undefined) };
  if (route.pagedList) Object.assign(properties, pageArguments);
  if (scope === 'write') properties[IDEMPOTENCY_ARGUMENT] = idempotencyArgument;
  const title = meta.openapi?.summary ?? route.procedurePath;
  const paging = route.pagedList
    ? ' Long lists come whole, or one page at a time with `page`/`pageSize`; a paged result says how to get the next page.'
    : '';
  const writes = scope === 'write' ? ' Needs a read-write key.' : '';
  return {
    route,
    wrapsList,
    listsFreshness,
    definition: {
      name: toolName(route.procedurePath),
      title,
      description: `${meta.openapi?.description ?? title}${paging}${writes} ${costText(credits)}`,
      inputSchema: { ...input, type: 'object', properties } as McpToolDefinition['inputSchema'],
      outputSchema: (wrapsList ? listObject(output, listsFreshness) : output) as McpToolDefinition['outputSchema'],
      annotations: {
        title,
        readOnlyHint: scope === 'read',
        idempotentHint: scope === 'read',
        destructiveHint: false,
        openWorldHint: false,
      },
      _meta: { credits, scope, restEndpoint: `${route.method} ${route.template}` },
    },
  };
}

/** The tools of `router`'s public data operations, by name. */
export function buildTools(router: AnyTRPCRouter): Map<string, Tool> {
  const tools = new Map<string, Tool>();
  for (const route of buildOperations(router)) {
    if (route.meta.scope === 'admin') continue;
    const tool = toolOf(route, router);
    tools.set(tool.definition.name, tool);
  }
  return tools;
}

/** What the docs list of the tools: the definitions `tools/list` answers a read-write key, made from the app router. */
export function mcpToolDefinitions(router: AnyTRPCRouter): ToolDefinition[] {
  return [...buildTools(router).values()].map((tool) => tool.definition);
}
