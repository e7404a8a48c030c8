import { router } from '@/server/api/trpc';
import { addKeywordsProcedure } from './add-keywords';

export const keywordsRouter = router({
  add: addKeywordsProcedure,
});
