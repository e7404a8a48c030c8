import { router } from '@/server/api/trpc';
import { addCompetitorProcedure, listCompetitorsProcedure, removeCompetitorProcedure } from './competitors.procedures';

export const competitorsRouter = router({
  list: listCompetitorsProcedure,
  add: addCompetitorProcedure,
  remove: removeCompetitorProcedure,
});
