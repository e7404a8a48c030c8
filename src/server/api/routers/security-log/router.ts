// Settings → Security log.
import { router } from '@/server/api/trpc';
import { exportSecurityEventsProcedure, listSecurityEventsProcedure } from './security-log.procedures';

export const securityLogRouter = router({
  list: listSecurityEventsProcedure,
  export: exportSecurityEventsProcedure,
});
