// The procedures about the store listing: the current one and its changelog.
import { apiProcedure } from '@/server/api/trpc';
import { CHANGELOG_LIMIT, currentMetadata, metadataChangelog } from '@/server/services/aso/metadata';
import { metadataInput, metadataOutput, changelogOutput } from './metadata.schema';

export const getMetadataProcedure = apiProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/apps/{id}/metadata',
      summary: 'Current store listing',
      description: 'The listing text and assets as last seen in the storefront.',
      tags: ['Metadata'],
      protect: true,
    },
    scope: 'read',
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
  })
  .input(metadataInput)
  .output(metadataOutput)
  .query(async ({ ctx, input }) => {
    const listing = await currentMetadata(ctx.actor.accountId, { appId: input.id, country: input.country });
    return { ...listing, capturedAt: listing.capturedAt.toISOString() };
  });

export const metadataChangelogProcedure = apiProcedure
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
    appInput: 'id',
    credits: 1,
    problems: ['LIMIT_REACHED', 'STORE_UNAVAILABLE'],
    cache: 'app',
    paging: { list: 'changes' },
  })
  .input(metadataInput)
  .output(changelogOutput)
  .query(async ({ ctx, input }) => {
    const log = await metadataChangelog(ctx.actor.accountId, { appId: input.id, country: input.country });
    return { ...log, changes: log.changes.map((change) => ({ ...change, changedAt: change.changedAt.toISOString() })) };
  });
