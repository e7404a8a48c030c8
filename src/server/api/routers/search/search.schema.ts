// Search and fetch over the account's own apps and keywords: the inputs and answers of their procedures, in the
// shapes ChatGPT's connectors call (https://platform.openai.com/docs/mcp: `search` answers `results`, each an id, a
// title and an address; `fetch` one of them whole, with its text and metadata).
import { z } from 'zod';

const documentId = z
  .string('Give an id that search answered.')
  .regex(
    /^(app|keyword):[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    'An id is app:<uuid> or keyword:<uuid>, as search answers them.',
  )
  .meta({
    description: 'An id search answered: app:<uuid> or keyword:<uuid>.',
    example: 'app:0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11',
  });

export const searchInput = z.object({
  query: z
    .string('Give the words to search for.')
    .trim()
    .min(1, 'Give the words to search for.')
    .max(200, 'A query has at most 200 characters.')
    .meta({
      description:
        'Words to find in the account’s apps (name, developer, bundle or store id) and tracked keywords (term).',
      example: 'sleep',
    }),
});

const searchResult = z.object({
  id: z.string().meta({ description: 'What fetch takes: app:<uuid> or keyword:<uuid>.' }),
  title: z.string(),
  url: z.url().meta({ description: 'The dashboard’s page of it.' }),
  text: z.string().meta({ description: 'A line about it.' }),
});

export const searchOutput = z
  .object({
    results: z
      .array(searchResult)
      .meta({ description: 'What matches every word of the query: apps first, then keywords; at most 20.' }),
  })
  .meta({ id: 'SearchResults' });

export const fetchInput = z.object({ id: documentId });

export const fetchOutput = searchResult
  .extend({
    text: z.string().meta({
      description:
        'The app or keyword whole, as text: an app’s storefronts and its keywords’ ranks on the last day of data; a keyword’s last 30 days of ranks, each day ranked, not ranked or not observed, and its competitors’.',
    }),
    metadata: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).meta({
      description: 'Its ids, store, storefront and last day of data.',
    }),
  })
  .meta({ id: 'FetchedDocument' });
