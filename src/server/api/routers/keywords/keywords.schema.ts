import { z } from 'zod';
import { appIdParam, isoDateTime } from '@/server/api/schemas';
import { countrySchema } from '@/server/domain/countries';
import type { TrackedKeywordView } from '@/server/services/apps/apps';

export const MAX_TERMS_PER_REQUEST = 100;
export const MAX_TERM_LENGTH = 100;

export const addKeywordsInput = z.strictObject({
  id: appIdParam,
  terms: z
    .array(z.string().trim().min(1, 'A term cannot be empty.').max(MAX_TERM_LENGTH, `A term has at most ${MAX_TERM_LENGTH} characters.`))
    .min(1, 'Give at least one term.')
    .max(MAX_TERMS_PER_REQUEST, `Give at most ${MAX_TERMS_PER_REQUEST} terms per request.`)
    .meta({
      description: `1 to ${MAX_TERMS_PER_REQUEST} search terms, each trimmed to 1–${MAX_TERM_LENGTH} characters. Duplicates (ignoring case) count once.`,
      example: ['meditation', 'sleep sounds'],
    }),
  country: countrySchema.nullish().meta({ description: 'Storefront to track the terms in; omitted or null: the app’s primary country.' }),
});

export const trackedKeywordOutput = z
  .object({
    keywordId: z.uuid().meta({ description: 'Use with the keyword history endpoints.' }),
    term: z.string(),
    country: z.string().length(2),
    isFavorite: z.boolean(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'TrackedKeyword' });

export const addKeywordsOutput = z
  .object({
    appId: z.uuid(),
    country: z.string().length(2),
    added: z.array(trackedKeywordOutput).meta({ description: 'Terms that are now tracked and were not before.' }),
    alreadyTracked: z.array(trackedKeywordOutput).meta({ description: 'Terms that were already tracked; nothing was duplicated.' }),
  })
  .meta({ id: 'AddKeywordsResult' });

export function toTrackedKeywordOutput(keyword: TrackedKeywordView): z.infer<typeof trackedKeywordOutput> {
  return { ...keyword, createdAt: keyword.createdAt.toISOString() };
}
