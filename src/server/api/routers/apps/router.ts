import { router } from '@/server/api/trpc';
import { getAppProcedure } from './get-app';
import { listAppsProcedure } from './list-apps';

export const appsRouter = router({
  list: listAppsProcedure,
  get: getAppProcedure,
});
