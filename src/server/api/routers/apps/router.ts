import { router } from '@/server/api/trpc';
import { getAsoScoreProcedure, getCategoryRankProcedure, getKeywordSpyProcedure, getRatingHistoryProcedure, listOpportunitiesProcedure } from './aso-procedures';
import { getAppProcedure } from './get-app';
import { listAppsProcedure } from './list-apps';

export const appsRouter = router({
  list: listAppsProcedure,
  get: getAppProcedure,
  asoScore: getAsoScoreProcedure,
  opportunities: listOpportunitiesProcedure,
  categoryRank: getCategoryRankProcedure,
  ratingHistory: getRatingHistoryProcedure,
  keywordSpy: getKeywordSpyProcedure,
});
