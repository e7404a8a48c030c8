// Paging of the public API's long lists (ProcedureMeta `paging`). A list endpoint answers its whole list, as v1 always
// has, unless `page` or `pageSize` is sent: then it answers that page of it. Either way the answer says how to go on,
// in headers that keep the body's shape: `X-Total-Count` (the items in the whole list) and `Link` (RFC 8288) with
// `first`, `prev`, `next` and `last`. An endpoint whose procedure pages by itself (reviews) answers `page`,
// `pageSize` and `total` in its body, and gets the same headers from them.
import { z } from 'zod';
import type { ListPaging } from '@/server/api/trpc';
import { queryInt } from '@/server/api/schemas';
import type { FieldError } from '@/server/errors/app-error';
import { fieldErrorsFromIssues, type Locate } from '@/server/errors/validation';

export const MAX_PAGE = 100_000;
export const MAX_PAGE_SIZE = 1_000;
/** Items per page when `page` is sent without `pageSize`. */
export const DEFAULT_PAGE_SIZE = 100;

const PAGE_TEXT =
  'Page number, from 1: with it (or with `pageSize`) the answer is that page of the list; without either, the whole list. A page past the last one is empty.';
const PAGE_SIZE_TEXT = `Items per page; default ${DEFAULT_PAGE_SIZE} when \`page\` is sent alone.`;

/** The paging parameters of a list the channels page, as they are checked. */
const pageQuery = z.object({
  page: queryInt({ min: 1, max: MAX_PAGE, description: PAGE_TEXT }),
  pageSize: queryInt({ min: 1, max: MAX_PAGE_SIZE, description: PAGE_SIZE_TEXT }),
});

function documented(name: string, text: string, max: number, example: number) {
  const description = `${text} Must be a whole number from 1 to ${max}.`;
  return {
    in: 'query',
    name,
    required: false,
    description,
    schema: { type: 'integer', format: 'int32', minimum: 1, maximum: max },
    example,
  };
}

/** The same parameters as the OpenAPI document states them (shared components, referenced by each paged list). */
export const PAGE_PARAMETERS = {
  ListPage: documented('page', PAGE_TEXT, MAX_PAGE, 1),
  ListPageSize: documented('pageSize', PAGE_SIZE_TEXT, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
};

/** How every paged list works, as data for generators (the document's `x-pagination`). */
export const PAGINATION_SCHEME = {
  style: 'page',
  pageParameter: 'page',
  pageSizeParameter: 'pageSize',
  wholeListWithoutParameters: true,
  totalHeader: 'X-Total-Count',
  linkHeader: 'Link',
  linkRelations: ['first', 'prev', 'next', 'last'],
  linkTargets: 'relative references (path and query), resolved against the request URL',
};

export interface PageRequest {
  page: number;
  pageSize: number;
}

/** The page asked for, null for the whole list; or the parameters' errors, as a validation problem lists them. */
export function pageRequestOf(
  input: Record<string, unknown>,
  locate?: Locate,
): { page: PageRequest | null; errors: FieldError[] } {
  const parsed = pageQuery.safeParse({ page: input.page, pageSize: input.pageSize });
  if (!parsed.success) return { page: null, errors: fieldErrorsFromIssues(parsed.error.issues, locate) };
  const { page, pageSize } = parsed.data;
  if (page === undefined && pageSize === undefined) return { page: null, errors: [] };
  return { page: { page: page ?? 1, pageSize: pageSize ?? DEFAULT_PAGE_SIZE }, errors: [] };
}

/** The list member of an answer ('' for an answer that is the list). */
function listOf(output: unknown, paging: ListPaging): unknown[] {
  const list = paging.list === '' ? output : (output as Record<string, unknown>)[paging.list];
  if (!Array.isArray(list)) throw new Error(`the answer has no list at "${paging.list}"`);
  return list;
}

/** Where a paged answer stands in its list. */
export interface ListPage {
  page: number;
  pageSize: number;
  total: number;
}

/**
 * The answer cut to the page asked for, the list's length, and the page it is (null for a whole list). REST's headers
 * and the MCP server's results both say where the list goes on from this.
 */
export function cutToPage(
  output: unknown,
  paging: ListPaging,
  request: PageRequest | null,
): { output: unknown; total: number; page: ListPage | null } {
  if (paging.pagedBy === 'procedure') {
    const { page, pageSize, total } = output as ListPage;
    return { output, total, page: { page, pageSize, total } };
  }
  const list = listOf(output, paging);
  if (!request) return { output, total: list.length, page: null };
  const items = list.slice((request.page - 1) * request.pageSize, request.page * request.pageSize);
  const paged = paging.list === '' ? items : { ...(output as Record<string, unknown>), [paging.list]: items };
  return { output: paged, total: list.length, page: { ...request, total: list.length } };
}

/** The answer cut to the page asked for (when one is), and the headers that say where the list goes on. */
export function pagedAnswer(
  output: unknown,
  paging: ListPaging,
  request: PageRequest | null,
  url: URL,
): { output: unknown; headers: Record<string, string> } {
  const cut = cutToPage(output, paging, request);
  return {
    output: cut.output,
    headers: cut.page ? pagingHeaders(url, cut.page, cut.total) : { 'X-Total-Count': String(cut.total) },
  };
}

function pagingHeaders(url: URL, request: PageRequest, total: number): Record<string, string> {
  const last = Math.max(1, Math.ceil(total / request.pageSize));
  const at = (page: number) => {
    const target = new URL(url);
    target.searchParams.set('page', String(page));
    target.searchParams.set('pageSize', String(request.pageSize));
    return `<${target.pathname}${target.search}>`;
  };
  const links = [`${at(1)}; rel="first"`];
  if (request.page > 1) links.push(`${at(Math.min(request.page - 1, last))}; rel="prev"`);
  if (request.page < last) links.push(`${at(request.page + 1)}; rel="next"`);
  links.push(`${at(last)}; rel="last"`);
  return { 'X-Total-Count': String(total), Link: links.join(', ') };
}
