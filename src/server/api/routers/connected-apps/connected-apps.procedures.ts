// Settings → API access → Connected apps: the agents an owner connected with OAuth (src/server/oauth/). Dashboard only,
// as the security log is: a connection is made in the browser, and seen and ended there.
import { z } from 'zod';
import { liveAccountOf } from '@/server/auth/actor';
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
  .query(async ({ ctx }) => (await listConnectedApps(liveAccountOf(ctx.actor), ctx.now)).map(toConnectedAppOutput));

export const revokeConnectedAppProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(connectedAppIdInput)
  .output(connectedAppOutput)
  .mutation(async ({ ctx, input }) =>
    toConnectedAppOutput(await revokeConnectedApp(liveAccountOf(ctx.actor), input.id, ctx.now)),
  );

export const restrictConnectedAppProcedure = dashboardProcedure
  .meta({ permission: 'keys.manage' })
  .input(restrictConnectedAppInput)
  .output(connectedAppOutput)
  .mutation(async ({ ctx, input }) =>
    toConnectedAppOutput(await restrictConnectedApp(liveAccountOf(ctx.actor), input, ctx.now)),
  );
