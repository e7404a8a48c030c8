import { router } from '@/server/api/trpc';
import { getUsageProcedure, usageLedgerProcedure } from './usage.procedures';

export const usageRouter = router({ get: getUsageProcedure, ledger: usageLedgerProcedure });
