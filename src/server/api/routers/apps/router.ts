import { router } from '@/server/api/trpc';
import {
  getAppProcedure,
  getAsoScoreProcedure,
  getCategoryRankProcedure,
  getKeywordSpyProcedure,
  getRatingHistoryProcedure,
  listAppsProcedure,
  listOpportunitiesProcedure,
} from './apps.procedures';

export const appsRouter = router({
  list: listAppsProcedure,
  get: getAppProcedure,
  asoScore: getAsoScoreProcedure,
  opportunities: listOpportunitiesProcedure,
  categoryRank: getCategoryRankProcedure,
  ratingHistory: getRatingHistoryProcedure,
  keywordSpy: getKeywordSpyProcedure,
});
