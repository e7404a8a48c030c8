import { router } from '@/server/api/trpc';
import { fetchProcedure, searchProcedure } from './search.procedures';

export const searchRouter = router({ query: searchProcedure, fetch: fetchProcedure });
