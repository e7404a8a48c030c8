// Competitors: the inputs and answers of their procedures.
import { z } from 'zod';
import { appIdParam, isoDateTime, storeUrlInput } from '@/server/api/schemas';
import { storefrontInput } from '@/server/domain/countries';
import { storeRatingCountFigure, storeRatingFigure } from '@/server/api/figures';

export const listCompetitorsInput = z.object({
  id: appIdParam,
  country: storefrontInput(
    'Storefront. Competitors are followed in every storefront: the value does not filter, but a storefront the app was never observed in is observed during this call (the store’s time) and tracked from then on, as for the other reads.',
  ).optional(),
});

export const addCompetitorInput = z.strictObject({
  id: appIdParam,
  storeUrl: storeUrlInput('Give the competitor’s store URL.'),
});

const competitorOutput = z
  .object({
    id: z.uuid(),
    storeUrl: z.url(),
    store: z.enum(['app_store', 'google_play']),
    storeId: z.string(),
    name: z.string().nullable(),
    developer: z.string().nullable(),
    category: z.string().nullable(),
    iconUrl: z.string().nullable(),
    rating: storeRatingFigure,
    ratingCount: storeRatingCountFigure,
    describedAt: isoDateTime.meta({
      description:
        'When the store was read for its name, category, rating and rating count: as it was added. They are not read again since; its ranks are, every day.',
    }),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Competitor' });

export type CompetitorRow = Omit<z.infer<typeof competitorOutput>, 'createdAt' | 'describedAt'> & { createdAt: Date };
export const toCompetitorOutput = (row: CompetitorRow) => ({
  ...row,
  describedAt: row.createdAt.toISOString(),
  createdAt: row.createdAt.toISOString(),
});

export const listCompetitorsOutput = z.array(competitorOutput);

export const addCompetitorOutput = z
  .object({ competitor: competitorOutput, created: z.boolean() })
  .meta({ id: 'AddCompetitorResult' });
