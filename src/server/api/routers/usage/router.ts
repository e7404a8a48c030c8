import { router } from '@/server/api/trpc';
import { getUsageProcedure } from './usage.procedures';

export const usageRouter = router({ get: getUsageProcedure });
