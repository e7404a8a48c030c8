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

/** A tool as `tools/list` answers it, with its cost, scope and REST twin (a free docs tool has none) in `_meta`. */
export type ToolDefinition = McpToolDefinition & {
  _meta: { credits: number; scope: 'read' | 'write'; restEndpoint?: string };
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

/**
 * An operation's tool name: the one its meta names (`tool`), else its procedure path's, `apps.asoScore` →
 * `apps_aso_score`: snake case, as agents' tool names usually are.
 */
export function toolName(route: Pick<Operation, 'procedurePath' | 'meta'>): string {
  return (
    route.meta.tool ?? route.procedurePath.replace(/\./g, '_').replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)
  );
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

/** The bounds zod gives every integer: no bound a client needs told. */
const SAFE_INTEGER_BOUNDS = new Set([Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER]);
/** An answer's bounds: what the server keeps to, which a client acts on no differently. */
const OUTPUT_BOUNDS = new Set(['minimum', 'maximum', 'minLength', 'maxLength']);
/** Members that tell an agent nothing a value's type does not, in every schema of a tool. */
const NEVER_LISTED = new Set(['example', 'examples', 'title', '$schema']);

/**
 * A schema as `tools/list` offers it, small: every definition is in an agent's context in every conversation. Out go
 * integers' safe bounds, a date's or a uuid's pattern beside its `format`, examples, and every description but an
 * argument's first sentence; from an output schema also its bounds, each member's description (what a figure means is in the data dictionary, which the free `fetch_doc` reads) and
 * `additionalProperties: false`, since an answer may gain members (v1 is additive).
 */
export function compactSchema(schema: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(schema)) return schema.map((item) => compactSchema(item, io));
  if (typeof schema !== 'object' || schema === null) return schema;
  const compact: JsonSchema = {};
  const source = schema as JsonSchema;
  for (const [key, value] of Object.entries(source)) {
    if (NEVER_LISTED.has(key)) continue;
    if ((key === 'minimum' || key === 'maximum') && SAFE_INTEGER_BOUNDS.has(value as number)) continue;
    if (io === 'output' && OUTPUT_BOUNDS.has(key)) continue;
    if (key === 'pattern' && typeof source.format === 'string') continue;
    if (key === 'override') continue;
    if (key === 'description' && typeof value === 'string') {
      if (io === 'input') compact.description = firstSentence(value);
      continue;
    }
    if (io === 'output' && key === 'additionalProperties' && value === false) continue;
    // `properties` names members: each is a schema, never a keyword of the object.
    compact[key] =
      key === 'properties' || key === '$defs'
        ? Object.fromEntries(
            Object.entries(value as JsonSchema).map(([name, member]) => [name, compactSchema(member, io)]),
          )
        : compactSchema(value, io);
  }
  return nullableAsType(compact);
}

/** `anyOf: [{ type: T, … }, { type: 'null' }]` as `type: [T, 'null']`: the same schema, in fewer tokens. */
function nullableAsType(schema: JsonSchema): JsonSchema {
  const options = schema.anyOf as JsonSchema[] | undefined;
  if (options?.length !== 2 || !options.some((option) => option.type === 'null' && Object.keys(option).length === 1))
    return schema;
  const value = options.find((option) => option.type !== 'null')!;
  if (typeof value.type !== 'string' || value.anyOf || value.$ref) return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  return { ...rest, ...value, type: [value.type, 'null'] };
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
    description: 'Page, from 1; without page or pageSize, the whole list.',
  },
  pageSize: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    description: `Default ${DEFAULT_PAGE_SIZE}.`,
  },
};

const idempotencyArgument: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  pattern: '^[\\x21-\\x7e]+$',
  description: 'Optional: repeated within 24 h, answered as the first and charged once.',
};

/** The cost, known before the call (it is in `_meta.credits` too). */
function costText(credits: number): string {
  if (credits === 0) return 'Free.';
  return `Costs ${credits} credit${credits === 1 ? '' : 's'}; refusals are free.`;
}

/**
 * A description's first sentence: what `tools/list` says of a tool or an argument. The rest is the REST reference's
 * (the free `fetch_doc` reads it), which an agent reads when it needs it rather than in every conversation.
 */
function firstSentence(text: string): string {
  const end = /[.!?](?=\s+[A-Z`(]|$)/.exec(text);
  return end ? text.slice(0, end.index + 1) : text;
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
  const writes = scope === 'write' ? ' Needs a read-write key.' : '';
  return {
    route,
    wrapsList,
    listsFreshness,
    definition: {
      name: toolName(route),
      title,
      description: `${firstSentence(meta.openapi?.description ?? title)}${writes} ${costText(credits)}`,
      inputSchema: compactSchema({ ...input, type: 'object', properties }, 'input') as McpToolDefinition['inputSchema'],
      outputSchema: compactSchema(
        wrapsList ? listObject(output, listsFreshness) : output,
        'output',
      ) as McpToolDefinition['outputSchema'],
      // A write says it destroys nothing; `idempotentHint` and `destructiveHint` mean nothing for a read (MCP). A POST
      // a read-only key may call (asking for an export) still makes something: not a read.
      annotations:
        scope === 'read' && route.method === 'GET'
          ? { readOnlyHint: true, openWorldHint: meta.asksStore === true }
          : {
              readOnlyHint: false,
              idempotentHint: false,
              destructiveHint: false,
              openWorldHint: meta.asksStore === true,
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
