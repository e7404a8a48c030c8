import { router } from '@/server/api/trpc';
import { addKeywordsProcedure } from './add-keywords';
import { keywordHistoryProcedure, keywordMetricsHistoryProcedure, listKeywordsProcedure, researchKeywordProcedure } from './keyword-procedures';

export const keywordsRouter = router({
  list: listKeywordsProcedure,
  add: addKeywordsProcedure,
  research: researchKeywordProcedure,
  history: keywordHistoryProcedure,
  metricsHistory: keywordMetricsHistoryProcedure,
});
