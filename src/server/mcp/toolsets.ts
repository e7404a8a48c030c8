// The MCP server's toolsets: which tools a client is offered. Every tool is in one toolset; a client chooses toolsets
// and a read-only mode by header (`X-MCP-Toolsets`, `X-MCP-Readonly`) or by the URL's query (`?toolsets=…&readonly=true`),
// as GitHub's MCP server does, and is offered only those tools, less what its credential may not call (a read-only
// key or grant: no write tool). A small default keeps what an agent pays before its first call small: each tool's
// definition is in its context in every conversation (docs/api-decisions.md, "MCP toolsets").
import { AppError } from '@/server/errors/app-error';

export const TOOLSETS = {
  apps: {
    description: 'The tracked apps: list them, read one, add one by its store address.',
    tools: ['apps_list', 'apps_get', 'apps_create'],
  },
  keywords: {
    description: 'Tracked keywords: today’s ranks and metrics, track new terms, a keyword’s rank history.',
    tools: ['keywords_list', 'keywords_add', 'keywords_history'],
  },
  research: {
    description:
      'Finding terms: live research of a term, the best opportunities, the terms competitors rank for, how a term’s volume and difficulty moved.',
    tools: ['keywords_research', 'apps_opportunities', 'apps_keyword_spy', 'keywords_metrics_history'],
  },
  listing: {
    description: 'The store listing and where it stands: the listing, its changelog, the ASO score, the category rank.',
    tools: ['metadata_get', 'metadata_changelog', 'apps_aso_score', 'apps_category_rank'],
  },
  reviews: {
    description:
      'Reviews, what they say, and the rating over time; replies to the reviews of an app you own, drafted for a member to approve.',
    tools: [
      'reviews_list',
      'reviews_insights',
      'apps_rating_history',
      'reviews_draft_reply',
      'reviews_reply_drafts',
      'reviews_reply_draft',
      'reviews_discard_reply_draft',
    ],
  },
  competitors: {
    description: 'The competitors followed for an app: list them, add one.',
    tools: ['competitors_list', 'competitors_add'],
  },
  usage: { description: 'The month’s credits: used, left, by endpoint.', tools: ['usage_get'] },
  exports: {
    description:
      'Bulk exports: a year of datasets as Parquet, CSV or JSON Lines files, written in the background, with download links.',
    tools: ['exports_create', 'exports_get', 'exports_list', 'exports_cancel'],
  },
  docs: {
    description: 'Free: search and read the API’s documentation, its problem pages and the data dictionary.',
    tools: ['search_docs', 'fetch_doc'],
  },
  search: {
    description: 'Search and fetch the account’s apps and keywords, in the shapes ChatGPT’s connectors call.',
    tools: ['search', 'fetch'],
  },
} as const satisfies Record<string, { description: string; tools: readonly string[] }>;

export type ToolsetName = keyof typeof TOOLSETS;
export const TOOLSET_NAMES = Object.keys(TOOLSETS) as ToolsetName[];

/** What a client is offered when it names no toolset. */
export const DEFAULT_TOOLSETS: readonly ToolsetName[] = ['apps', 'keywords', 'docs', 'search'];

/** What a request chose: its toolsets' tools, and whether only reads. */
export interface ToolChoice {
  toolsets: readonly ToolsetName[];
  readOnly: boolean;
}

export const TOOLSETS_HEADER = 'X-MCP-Toolsets';
export const READ_ONLY_HEADER = 'X-MCP-Readonly';

/**
 * The choice a request makes, by header or query (the header wins). `all` names every toolset and `default` the
 * default ones, beside others (`default,reviews`). A name that is no toolset is refused with 400, naming those that are:
 * a typo must not quietly hide tools. Read-only is off when absent, empty or one of false/no/0/off.
 */
export function toolChoiceOf(
  headers: { toolsets: string | null; readOnly: string | null },
  query: URLSearchParams,
): ToolChoice {
  // A header sent empty names nothing: the query, else the default, decides.
  const [toolsetsText, toolsetsWhere] = headers.toolsets?.trim()
    ? [headers.toolsets, { in: 'header' as const, pointer: TOOLSETS_HEADER }]
    : [query.get('toolsets'), { in: 'query' as const, pointer: 'toolsets' }];
  const named = (toolsetsText ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  const unknown = named.filter((name) => name !== 'all' && name !== 'default' && !(name in TOOLSETS));
  if (unknown.length) {
    const detail = `${toolsetsWhere.pointer} names toolsets among ${TOOLSET_NAMES.join(', ')}, or all or default; "${unknown[0]!.slice(0, 40)}" is none.`;
    throw new AppError('VALIDATION_ERROR', detail, { errors: [{ ...toolsetsWhere, detail }] });
  }
  const chosen = new Set<ToolsetName>();
  for (const name of named.length ? named : ['default'])
    for (const toolset of name === 'all'
      ? TOOLSET_NAMES
      : name === 'default'
        ? DEFAULT_TOOLSETS
        : [name as ToolsetName])
      chosen.add(toolset);
  const readOnlyText = (headers.readOnly?.trim() || query.get('readonly') || '').trim().toLowerCase();
  return {
    toolsets: TOOLSET_NAMES.filter((name) => chosen.has(name)),
    readOnly: !['', 'false', 'f', 'no', 'n', '0', 'off'].includes(readOnlyText),
  };
}

/** The toolset of a tool, by its name. */
export function toolsetOf(toolName: string): ToolsetName | undefined {
  return TOOLSET_NAMES.find((name) => (TOOLSETS[name].tools as readonly string[]).includes(toolName));
}

/** Whether the choice offers the tool: in a chosen toolset, and a read when only reads are chosen. */
export function choiceOffers(choice: ToolChoice, tool: { name: string; readOnly: boolean }): boolean {
  const toolset = toolsetOf(tool.name);
  return toolset !== undefined && choice.toolsets.includes(toolset) && (tool.readOnly || !choice.readOnly);
}
