import { router } from '@/server/api/trpc';
import {
  connectStoreAccountProcedure,
  listStoreAccountsProcedure,
  removeStoreAccountProcedure,
} from './store-accounts.procedures';

export const storeAccountsRouter = router({
  list: listStoreAccountsProcedure,
  connect: connectStoreAccountProcedure,
  remove: removeStoreAccountProcedure,
});
