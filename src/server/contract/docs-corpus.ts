// The docs' corpus: what the API says of itself, as pages an agent can search and read (the MCP server's free
// `search_docs` and `fetch_doc`). Every page is made from what the docs pages and the OpenAPI document are made from,
// so the two cannot say different things: the guide's sections (the document's introduction), each operation, each
// problem kind, each schema of the data dictionary, each webhook event, each dated version's changes, and the plans.
// Searched with MiniSearch (full text, ranked, prefix and fuzzy matches): a well-kept library for a small corpus.
import MiniSearch from 'minisearch';
import { PROBLEM_TYPES } from '@/server/errors/problem-types';
import { API_VERSIONS, VERSION_CHANGES } from '@/server/domain/api-versions';
import { dataDictionary } from './data-dictionary';
import { openApiDocumentJson } from './document';

export interface DocPage {
  /** What fetch_doc takes: `guide:credits`, `operation:GET /apps/{id}`, `problem:not-found`, `schema:App`, … */
  id: string;
  title: string;
  /** Where a person reads it. */
  url: string;
  /** The page whole, as Markdown. */
  text: string;
}

type Json = Record<string, unknown>;

const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'];

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The document's introduction, one page per section (each opens with a bold title: "**Credits.** …"). */
function guidePages(document: Json, origin: string): DocPage[] {
  const description = String((document.info as Json).description ?? '');
  const sections = description.split(/\n(?=\*\*[^*\n]+\.\*\*)/);
  return sections.map((section, index) => {
    const title = /^\*\*([^*\n]+)\.\*\*/.exec(section)?.[1] ?? (index === 0 ? 'Getting started' : `Section ${index}`);
    return { id: `guide:${slugOf(title)}`, title, url: `${origin}/docs`, text: section.trim() };
  });
}

function operationPages(document: Json, origin: string): DocPage[] {
  const pages: DocPage[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      const parameters = ((operation.parameters ?? []) as Json[]).map((parameter) => {
        const resolved = parameter.$ref
          ? (((document.components as Json).parameters as Record<string, Json>)[
              String(parameter.$ref).split('/').at(-1)!
            ] ?? parameter)
          : parameter;
        return `- \`${resolved.name}\` (${resolved.in}${resolved.required ? ', required' : ''}): ${resolved.description ?? ''}`;
      });
      const title = `${method.toUpperCase()} ${path}: ${operation.summary}`;
      pages.push({
        id: `operation:${method.toUpperCase()} ${path}`,
        title,
        url: `${origin}/docs/api`,
        text: [
          `# ${title}`,
          String(operation.description ?? ''),
          parameters.length ? `Parameters:\n${parameters.join('\n')}` : '',
          `Scope: ${operation['x-scope']}. Credits: ${operation['x-credits']}.`,
        ]
          .filter(Boolean)
          .join('\n\n'),
      });
    }
  }
  return pages;
}

function problemPages(origin: string): DocPage[] {
  return Object.values(PROBLEM_TYPES).map((type) => ({
    id: `problem:${type.slug}`,
    title: `${type.title} (${type.status} \`${type.slug}\`)`,
    url: `${origin}/docs/problems/${type.slug}`,
    text: `# ${type.title}\n\nHTTP ${type.status}, \`code: "${type.slug}"\`.\n\n${type.description}\n\nWhat to do: ${type.remedy}`,
  }));
}

function schemaPages(origin: string): DocPage[] {
  return dataDictionary(origin).map((schema) => ({
    id: `schema:${schema.name}`,
    title: `${schema.name}: the fields of ${schema.operations.join(', ')}`,
    url: `${origin}/docs/data#schema-${schema.name}`,
    text: [
      `# ${schema.name}`,
      schema.description,
      `Answered by ${schema.operations.join(', ')}.`,
      schema.fields.map((field) => `- \`${field.path}\` (${field.type}): ${field.description || '—'}`).join('\n'),
    ]
      .filter(Boolean)
      .join('\n\n'),
  }));
}

function webhookPages(document: Json, origin: string): DocPage[] {
  return Object.entries((document.webhooks ?? {}) as Record<string, { post: Json }>).map(([kind, item]) => ({
    id: `webhook:${kind}`,
    title: `Webhook event ${kind}`,
    url: `${origin}/docs/webhooks`,
    text: `# The \`${kind}\` event\n\n${item.post.summary ?? ''}\n\n${item.post.description ?? ''}`,
  }));
}

function changelogPages(origin: string): DocPage[] {
  return API_VERSIONS.map((version) => ({
    id: `changelog:${version}`,
    title: `API version ${version}: ${VERSION_CHANGES[version].summary}`,
    url: `${origin}/docs/changelog`,
    text: [
      `# Aso-Version ${version}`,
      VERSION_CHANGES[version].summary,
      VERSION_CHANGES[version].changes.map((change) => `- ${change}`).join('\n'),
    ]
      .filter(Boolean)
      .join('\n\n'),
  }));
}

function planPage(document: Json, origin: string): DocPage {
  const plans = (document['x-plans'] ?? []) as Json[];
  const rows = plans.map(
    (plan) =>
      `- ${plan.plan}: API access ${plan.apiAccess ? 'yes' : 'no'}, ${plan.monthlyCredits ?? 'unlimited'} credits a month, ${plan.requestsPerMinute} requests a minute, ${plan.trackedApps ?? 'unlimited'} apps, ${plan.trackedKeywords ?? 'unlimited'} keywords, ${plan.storefrontsPerApp ?? 'unlimited'} storefronts and ${plan.competitorsPerApp ?? 'unlimited'} competitors per app`,
  );
  return {
    id: 'guide:plans',
    title: 'Plans: credits, request rates and caps',
    url: `${origin}/settings/billing`,
    text: `# Plans\n\n${rows.join('\n')}`,
  };
}

interface Corpus {
  pages: Map<string, DocPage>;
  index: MiniSearch<DocPage>;
}

const corpora = new Map<string, Corpus>();

/** The corpus of `origin`'s docs, made once per process and origin (as the document it reads). */
function corpusOf(origin: string): Corpus {
  let corpus = corpora.get(origin);
  if (!corpus) {
    const document = JSON.parse(openApiDocumentJson(origin)) as Json;
    const pages = [
      ...guidePages(document, origin),
      planPage(document, origin),
      ...operationPages(document, origin),
      ...problemPages(origin),
      ...schemaPages(origin),
      ...webhookPages(document, origin),
      ...changelogPages(origin),
    ];
    const index = new MiniSearch<DocPage>({
      fields: ['title', 'text'],
      storeFields: ['id'],
      searchOptions: { boost: { title: 3 }, prefix: true, fuzzy: 0.2, combineWith: 'AND' },
    });
    index.addAll(pages);
    corpus = { pages: new Map(pages.map((page) => [page.id, page])), index };
    corpora.set(origin, corpus);
  }
  return corpus;
}

/** What search_docs answers at most. */
export const DOC_RESULTS = 8;

/**
 * The pages that best match every word of the query (or, when none matches every word, any of them), best first: each
 * with its id, title, address and the start of its text.
 */
export function searchDocs(
  origin: string,
  query: string,
): { results: (Omit<DocPage, 'text'> & { snippet: string })[] } {
  const { pages, index } = corpusOf(origin);
  let found = index.search(query);
  if (!found.length) found = index.search(query, { combineWith: 'OR' });
  return {
    results: found.slice(0, DOC_RESULTS).map((hit) => {
      const page = pages.get(String(hit.id))!;
      return { id: page.id, title: page.title, url: page.url, snippet: snippetOf(page.text) };
    }),
  };
}

/** A page whole, by the id search_docs answered; undefined when there is none. */
export function fetchDoc(origin: string, id: string): DocPage | undefined {
  return corpusOf(origin).pages.get(id);
}

function snippetOf(text: string): string {
  const plain = text
    .replace(/^#.*\n+/, '')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.length > 240 ? `${plain.slice(0, 239)}…` : plain;
}
