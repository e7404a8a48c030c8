import { z } from 'zod';
import { appIdParam, isoDateTime } from '@/server/api/schemas';
import { apiProcedure, router } from '@/server/api/trpc';
import { countrySchema } from '@/server/domain/countries';
import { addCompetitor, listCompetitors } from '@/server/services/aso/competitors';

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
    rating: z.number().nullable(),
    ratingCount: z.int().nullable(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'Competitor' });

type CompetitorRow = Omit<z.infer<typeof competitorOutput>, 'createdAt'> & { createdAt: Date };
const toOutput = (row: CompetitorRow) => ({ ...row, createdAt: row.createdAt.toISOString() });

export const competitorsRouter = router({
  list: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/apps/{id}/competitors', summary: 'List competitors', description: 'Competitors tracked for the app, oldest first, with what we know of each.', tags: ['Competitors'], protect: true },
      scope: 'read',
      credits: 1,
      cache: 'app',
    })
    .input(z.object({ id: appIdParam, country: countrySchema.optional().meta({ description: 'Storefront, any case. Competitors are tracked for all storefronts; the value is validated and does not filter.' }) }))
    .output(z.array(competitorOutput))
    .query(async ({ ctx, input }) => (await listCompetitors(ctx.actor.accountId, { appId: input.id })).map(toOutput)),

  add: apiProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/apps/{id}/competitors',
        summary: 'Track a competitor',
        description:
          'Adds a competitor by its App Store (https://apps.apple.com/<cc>/app/<name>/id<digits>) or Google Play (https://play.google.com/store/apps/details?id=<package>) address. Idempotent: an already tracked competitor is answered as it is, with `created: false`. Needs a read-write key.',
        tags: ['Competitors'],
        protect: true,
        contentTypes: ['application/json'],
      },
      scope: 'write',
      credits: 2,
    })
    .input(z.strictObject({ id: appIdParam, storeUrl: z.string('Give the competitor’s store URL.').max(2048).meta({ example: 'https://apps.apple.com/us/app/calm/id571800810' }) }))
    .output(z.object({ competitor: competitorOutput, created: z.boolean() }).meta({ id: 'AddCompetitorResult' }))
    .mutation(async ({ ctx, input }) => {
      const { competitor, created } = await addCompetitor(ctx.actor.accountId, { appId: input.id, storeUrl: input.storeUrl });
      return { competitor: toOutput(competitor), created };
    }),
});
