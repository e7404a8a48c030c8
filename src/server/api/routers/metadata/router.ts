import { router } from '@/server/api/trpc';
import { getMetadataProcedure, metadataChangelogProcedure } from './metadata.procedures';

export const metadataRouter = router({
  get: getMetadataProcedure,
  changelog: metadataChangelogProcedure,
});
