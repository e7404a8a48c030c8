import { apiProcedure } from '@/server/api/trpc';
import { listApps } from '@/server/services/apps/apps';
import { listAppsInput, listAppsOutput, toAppOutput } from './apps.schema';

export const listAppsProcedure = apiProcedure
  .meta({
    openapi: { method: 'GET', path: '/apps', summary: 'List tracked apps', description: 'Every app your account tracks, oldest first, as a JSON array.', tags: ['Apps'], protect: true },
    scope: 'read',
    credits: 1,
    cache: 'account',
  })
  .input(listAppsInput)
  .output(listAppsOutput)
  .query(async ({ ctx }) => (await listApps(ctx.actor.accountId)).map(toAppOutput));
