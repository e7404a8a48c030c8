// Settings → Security log. Dashboard only: what an account's access went through is the owner's to read.
import { dashboardProcedure } from '@/server/api/trpc';
import { exportSecurityEvents, listSecurityEvents } from '@/server/services/security-log/security-log';
import { listSecurityEventsInput, securityEventsFilterInput } from './security-log.schema';

export const listSecurityEventsProcedure = dashboardProcedure
  .meta({ permission: 'security-log.read' })
  .input(listSecurityEventsInput)
  .query(({ ctx, input }) => listSecurityEvents(ctx.actor.accountId, input));

export const exportSecurityEventsProcedure = dashboardProcedure
  .meta({ permission: 'security-log.read' })
  .input(securityEventsFilterInput)
  .query(({ ctx, input }) => exportSecurityEvents(ctx.actor.accountId, input));
