// /docs/agents.md: an AGENTS.md for an agent (or its developer) about to use the API or the MCP server, in Markdown,
// made from the OpenAPI document (the operations, their costs, the problem kinds, the versions), so that it cannot
// say another thing than the reference.
import { PROBLEM_TYPES } from '@/server/errors/problem-types';
import { API_VERSIONS } from '@/server/domain/api-versions';
import { openApiDocumentJson } from './document';

type Json = Record<string, unknown>;

const guides = new Map<string, string>();

/** The guide for `origin`'s deployment, made once per process and origin. */
export function agentsGuide(origin: string, mcpPath: string): string {
  const key = `${origin} ${mcpPath}`;
  let guide = guides.get(key);
  if (!guide) guides.set(key, (guide = write(origin, mcpPath)));
  return guide;
}

function write(origin: string, mcpPath: string): string {
  const document = JSON.parse(openApiDocumentJson(origin)) as { paths: Record<string, Record<string, Json>> };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([, operation]) => operation['x-scope'] !== 'admin')
      .map(([method, operation]) => ({
        line: `| \`${method.toUpperCase()} ${path}\` | ${operation.summary} | ${operation['x-credits']} | ${operation['x-scope']} |`,
      })),
  );
  const api = `${origin}/api/public/v1`;
  return `# AGENTS.md: the ASO Analytics API

App store optimization data for the apps an account tracks: keyword ranks and metrics, ratings and reviews, store
listings and their changes, category ranks and competitors, on the App Store and Google Play, in any storefront.
Two ways in, the same operations and the same credits:

- REST: \`${api}\` (OpenAPI 3.1: \`${api}/openapi.json\`; a Postman collection: \`${api}/collection.json\`).
- MCP (Streamable HTTP, stateless, the 2025-era handshake and the 2026-07-28 revision): \`${origin}${mcpPath}\`.

Everything below is in the docs at \`${origin}/docs\`; over MCP, the free tools \`search_docs\` and \`fetch_doc\` read
them without spending a credit. Start there when unsure.

## Credentials

- \`Authorization: Bearer svc_live_…\`, an API key made under Settings → API access. A read-only key cannot write; a
  key may be restricted to some apps, client addresses and a monthly budget. Never put a key in a URL.
- An MCP client that supports OAuth needs only the URL: it signs in with the account owner's consent.
- \`svc_test_…\` keys read the account's test sandbox: sample apps, no live credit spent. Send \`X-Test-Trigger\` (for
  example \`credits-exhausted\`, \`rate-limited\`, \`store-unavailable\`) to get that refusal on demand and test the
  handling of it.

## What a call costs

Each successful call is charged its credits from the account's monthly allowance; refusals and failures are free.
Every REST answer says what it cost and what is left (\`X-Credits-Cost\`, \`X-Credits-Remaining\`, \`X-Credits-Reset\`),
as every MCP result does in \`_meta.credits\`; \`GET /usage\` is free. A read computed from data that has not changed
is replayed, and charged as computed.

| Operation | What | Credits | Scope |
|---|---|---|---|
${operations.map((operation) => operation.line).join('\n')}

Spend little: list before you look one up (\`GET /apps\`, then \`GET /apps/{id}/keywords\` gives every keyword's rank
and metrics in one call); live research (\`GET /apps/{id}/keywords/research\`, 8 credits) asks the store itself, so
research a term once and track it (\`POST /apps/{id}/keywords\`) to follow it daily for 1 credit a read.

## MCP: toolsets

Every tool is in a toolset; the default offers \`apps\`, \`keywords\`, \`docs\` and \`search\`, to keep the tool list small
in your context. Ask for others with \`X-MCP-Toolsets: research,reviews\` (or \`?toolsets=\` on the URL; \`all\` for
every one, \`default\` beside others) and for reads only with \`X-MCP-Readonly: true\`. A tool's description ends with
its cost, which is in its \`_meta.credits\` too. \`search\` and \`fetch\` find and read the account's apps and keywords
(1 credit each); their ids (\`app:…\`, \`keyword:…\`) are what \`fetch\` takes.

## What the data means

- A rank is a place in the store's search results, read once a day. \`rankStatus\` (and \`status\` on a history's
  points) says which of three it is: \`ranked\`, \`unranked\` (we looked: the app was not in the results, which show at
  most 200 on Apple, 100 on Google Play) or \`not_observed\` (we did not look that day). A rank is null in the last
  two: never read null as "not ranked" without its status.
- Every read about one app says the last day of data it reads and its storefront: \`freshness\` in an object answer
  (with \`limits\`, what it cannot say), and the \`Aso-Data-Through\` and \`Aso-Storefront\` headers always (an MCP list
  result has \`freshness\` beside its \`items\`).
- Volume and difficulty are estimates from what the stores show, not counts the stores publish.
- The meaning of a field changes only with a dated version: send \`Aso-Version: ${API_VERSIONS.at(-1)}\` to pin what you
  were built against (versions: ${API_VERSIONS.join(', ')}; the changelog at \`${origin}/docs/changelog\`). Every answer
  names the version that shaped it in its \`Aso-Version\` header.

## When a call is refused

Refusals are \`application/problem+json\` (on MCP, a tool error whose text is the same problem), with a \`code\` to
switch on:

${Object.values(PROBLEM_TYPES)
  .map((type) => `- \`${type.slug}\` (${type.status}): ${type.remedy}`)
  .join('\n')}

Retry only what says so: \`rate-limited\` after its \`Retry-After\` (MCP: \`retryAfter\` seconds in the problem),
\`store-unavailable\` and \`service-unavailable\` after a pause. Send an \`Idempotency-Key\` header (MCP:
\`idempotencyKey\` argument) with every write you might retry: a repeat within 24 hours is answered as the first and
charged once.

## Lists

Lists come whole, or a page at a time with \`page\` and \`pageSize\`; a paged REST answer has \`X-Total-Count\` and a
\`Link\` header with \`next\`, a paged MCP result \`_meta.paging.nextPage\`. Reviews are always paged.
`;
}
