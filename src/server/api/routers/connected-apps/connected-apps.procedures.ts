// Settings → API access → Connected apps: the agents an owner connected with OAuth (src/server/oauth/). Dashboard only,
// as the security log is: a connection is made in the browser, and seen and ended there.
import { z } from 'zod';
import { dashboardProcedure } from '@/server/api/trpc';
import { listConnectedApps, restrictConnectedApp, revokeConnectedApp } from '@/server/services/oauth/connected-apps';
import {
  connectedAppIdInput,
  connectedAppOutput,
  restrictConnectedAppInput,
  toConnectedAppOutput,
} from './connected-apps.schema';

export const listConnectedAppsProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .output(z.array(connectedAppOutput))
  .query(async ({ ctx }) => (await listConnectedApps(ctx.actor.liveAccountId, ctx.now)).map(toConnectedAppOutput));

export const revokeConnectedAppProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(connectedAppIdInput)
  .output(connectedAppOutput)
  .mutation(async ({ ctx, input }) =>
    toConnectedAppOutput(await revokeConnectedApp(ctx.actor.liveAccountId, input.id, ctx.now)),
  );

export const restrictConnectedAppProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(restrictConnectedAppInput)
  .output(connectedAppOutput)
  .mutation(async ({ ctx, input }) =>
    toConnectedAppOutput(await restrictConnectedApp(ctx.actor.liveAccountId, input, ctx.now)),
  );
