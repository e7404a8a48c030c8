import { z } from 'zod';
import { appIdParam, countryQuery, isoDateTime } from '@/server/api/schemas';
import { apiProcedure, router } from '@/server/api/trpc';
import { CHANGELOG_LIMIT, currentMetadata, metadataChangelog } from '@/server/services/aso/metadata';

const metadataInput = z.object({ id: appIdParam, country: countryQuery });

const metadataOutput = z
  .object({
    country: z.string().length(2),
    capturedAt: isoDateTime.meta({ description: 'When this version of the listing was first seen.' }),
    title: z.string(),
    subtitle: z.string().nullable().meta({ description: 'App Store subtitle, or Google Play short description.' }),
    description: z.string(),
    keywordField: z.string().nullable().meta({ description: 'App Store keyword field (null on Google Play).' }),
    promotionalText: z.string().nullable(),
    whatsNew: z.string().nullable(),
    screenshotsCount: z.int(),
    hasVideo: z.boolean(),
    price: z.string().meta({ example: '0.00' }),
    currency: z.string().length(3),
    version: z.string(),
  })
  .meta({ id: 'StoreListing' });

const changelogOutput = z
  .object({
    country: z.string().length(2),
    changes: z.array(z.object({ field: z.string(), before: z.string().nullable(), after: z.string().nullable(), changedAt: isoDateTime })),
  })
  .meta({ id: 'MetadataChangelog' });

export const metadataRouter = router({
  get: apiProcedure
    .meta({
      openapi: { method: 'GET', path: '/apps/{id}/metadata', summary: 'Current store listing', description: 'The listing text and assets as last seen in the storefront.', tags: ['Metadata'], protect: true },
      scope: 'read',
      credits: 1,
      cache: 'app',
    })
    .input(metadataInput)
    .output(metadataOutput)
    .query(async ({ ctx, input }) => {
      const listing = await currentMetadata(ctx.actor.accountId, { appId: input.id, country: input.country });
      return { ...listing, capturedAt: listing.capturedAt.toISOString() };
    }),

  changelog: apiProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/apps/{id}/metadata/changelog',
        summary: 'Listing change history',
        description: `Field-level changes (before and after) between consecutive listings, newest first, at most ${CHANGELOG_LIMIT}. Numbers and booleans are given as strings.`,
        tags: ['Metadata'],
        protect: true,
      },
      scope: 'read',
      credits: 1,
      cache: 'app',
    })
    .input(metadataInput)
    .output(changelogOutput)
    .query(async ({ ctx, input }) => {
      const log = await metadataChangelog(ctx.actor.accountId, { appId: input.id, country: input.country });
      return { ...log, changes: log.changes.map((change) => ({ ...change, changedAt: change.changedAt.toISOString() })) };
    }),
});
