import { apiProcedure } from '@/server/api/trpc';
import { getApp } from '@/server/services/apps/apps';
import { appOutput, getAppInput, toAppOutput } from './apps.schema';

export const getAppProcedure = apiProcedure
  .meta({
    openapi: { method: 'GET', path: '/apps/{id}', summary: 'Get a tracked app', description: 'One tracked app. An app of another account is answered 404, like an unknown id.', tags: ['Apps'], protect: true },
    scope: 'read',
    credits: 1,
    cache: 'app',
  })
  .input(getAppInput)
  .output(appOutput)
  .query(async ({ ctx, input }) => toAppOutput(await getApp(ctx.actor.accountId, input.id)));
