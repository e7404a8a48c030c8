// The MCP server's free documentation tools: `search_docs` and `fetch_doc` over the docs' corpus
// (src/server/contract/docs-corpus.ts: the guide, every operation, problem kind, schema of the data dictionary, webhook
// event and dated version). They read no account data and spend no credit, so an agent can learn the API before it
// spends anything; they count toward the credential's requests per minute like any call.
import { z } from 'zod';
import { DOC_RESULTS } from '@/server/contract/docs-corpus';
import { compactSchema, type ToolDefinition } from './tools';

const searchDocsInput = z.strictObject({
  query: z
    .string('Give the words to search for.')
    .trim()
    .min(1, 'Give the words to search for.')
    .max(200, 'A query has at most 200 characters.')
    .meta({ description: 'Words to find in the docs: a field, an endpoint, a problem code, an idea.' }),
});

const fetchDocInput = z.strictObject({
  id: z
    .string('Give a page id that search_docs answered.')
    .min(1, 'Give a page id that search_docs answered.')
    .max(300)
    .meta({ description: 'A page id search_docs answered, e.g. operation:GET /apps/{id}/keywords.' }),
});

const searchDocsOutput = z.object({
  results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string(), snippet: z.string() })),
});
const fetchDocOutput = z.object({ id: z.string(), title: z.string(), url: z.string(), text: z.string() });

function definition(
  name: 'search_docs' | 'fetch_doc',
  title: string,
  description: string,
  input: z.ZodType,
  output: z.ZodType,
): ToolDefinition {
  const schema = (zod: z.ZodType, io: 'input' | 'output') => {
    const { $schema: _schema, ...json } = z.toJSONSchema(zod, { io }) as Record<string, unknown>;
    return compactSchema(json, io);
  };
  return {
    name,
    title,
    description: `${description} Free.`,
    inputSchema: schema(input, 'input') as ToolDefinition['inputSchema'],
    outputSchema: schema(output, 'output') as ToolDefinition['outputSchema'],
    annotations: { readOnlyHint: true, openWorldHint: false },
    _meta: { credits: 0, scope: 'read' },
  };
}

export const DOCS_TOOLS = {
  search_docs: {
    definition: definition(
      'search_docs',
      'Search the API docs',
      `The docs pages that best match the query (at most ${DOC_RESULTS}): endpoints, fields, problem codes, webhooks, versions, plans.`,
      searchDocsInput,
      searchDocsOutput,
    ),
    input: searchDocsInput,
  },
  fetch_doc: {
    definition: definition(
      'fetch_doc',
      'Read an API docs page',
      'One docs page whole, as Markdown, by the id search_docs answered.',
      fetchDocInput,
      fetchDocOutput,
    ),
    input: fetchDocInput,
  },
} as const;

export type DocsToolName = keyof typeof DOCS_TOOLS;

export function isDocsTool(name: string): name is DocsToolName {
  return Object.hasOwn(DOCS_TOOLS, name);
}
