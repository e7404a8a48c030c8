// Settings → API access → Connected apps.
import { router } from '@/server/api/trpc';
import {
  listConnectedAppsProcedure,
  restrictConnectedAppProcedure,
  revokeConnectedAppProcedure,
} from './connected-apps.procedures';

export const connectedAppsRouter = router({
  list: listConnectedAppsProcedure,
  revoke: revokeConnectedAppProcedure,
  restrict: restrictConnectedAppProcedure,
});
