// Settings → Security log. Dashboard only: what an account's access went through is the owner's to read.
import { dashboardProcedure } from '@/server/api/trpc';
import { exportSecurityEvents, listSecurityEvents, listSecurityEventsInput } from '@/server/services/security-log/security-log';

export const listSecurityEventsProcedure = dashboardProcedure.input(listSecurityEventsInput).query(({ ctx, input }) => listSecurityEvents(ctx.actor.accountId, input));

export const exportSecurityEventsProcedure = dashboardProcedure
  .input(listSecurityEventsInput.omit({ page: true, pageSize: true }))
  .query(({ ctx, input }) => exportSecurityEvents(ctx.actor.accountId, input));
