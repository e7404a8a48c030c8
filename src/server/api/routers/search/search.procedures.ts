// The procedures of search and fetch over the account's own apps and keywords (ChatGPT's connectors call the MCP tools
// `search` and `fetch` by those names). Charged as their twins: a search as the list of apps, a fetch as one app or one
// keyword's history.
import { apiProcedure } from '@/server/api/trpc';
import { appsWithinReach } from '@/server/services/access/access-policy';
import { fetchAccountDocument, searchAccount } from '@/server/services/search/account-search';
import { fetchInput, fetchOutput, searchInput, searchOutput } from './search.schema';

export const searchProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/search',
      summary: 'Search your apps and keywords',
      description:
        'The account’s apps and tracked keywords that match every word of `query`, apps first, at most 20: each with the id `GET /search/{id}` takes. For a key restricted to chosen apps, those apps and their keywords only. Costs as `GET /apps`.',
      tags: ['Search'],
      protect: true,
    },
    scope: 'read',
    credits: 1,
    apiOnly: true,
    tool: 'search',
  })
  .input(searchInput)
  .output(searchOutput)
  .query(({ ctx, input }) =>
    searchAccount(ctx.actor.accountId, { query: input.query, reach: (apps) => appsWithinReach(ctx.actor, apps) }),
  );

export const fetchProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/search/{id}',
      summary: 'Fetch an app or keyword as text',
      description:
        'One app or tracked keyword whole, as text, by the id search answered (`app:<uuid>` or `keyword:<uuid>`): an app with its keywords’ ranks on the last day of data, a keyword with its last 30 days of ranks and its competitors’. Costs as `GET /apps/{id}` or a keyword’s history.',
      tags: ['Search'],
      protect: true,
    },
    scope: 'read',
    credits: 1,
    apiOnly: true,
    tool: 'fetch',
  })
  .input(fetchInput)
  .output(fetchOutput)
  .query(({ ctx, input }) =>
    fetchAccountDocument(ctx.actor.accountId, { id: input.id, reach: (apps) => appsWithinReach(ctx.actor, apps) }),
  );
