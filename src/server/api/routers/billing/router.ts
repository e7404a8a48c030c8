import { router } from '@/server/api/trpc';
import { billingOverviewProcedure, checkoutProcedure, portalProcedure } from './billing.procedures';

export const billingRouter = router({
  overview: billingOverviewProcedure,
  checkout: checkoutProcedure,
  portal: portalProcedure,
});
