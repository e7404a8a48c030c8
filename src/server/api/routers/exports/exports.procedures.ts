// The procedures of exports (issue 68): ask for one, read it (its files' links once completed), list them, cancel one.
// Credits are the export's own (a credit a thousand rows, charged as it is asked for by the service), not the call's.
import { z } from 'zod';
import type { Actor } from '@/server/auth/actor';
import { apiProcedure } from '@/server/api/trpc';
import { cancelExport, createExport, getExport, listExports } from '@/server/services/exports/exports';
import { createExportInput, exportIdInput, exportOutput, toExportOutput } from './exports.schema';

const EXPORTS = { tags: ['Exports'], protect: true };

/** The apps a key restricted to chosen apps reaches; null: every app (sessions and unrestricted credentials). */
const reachOf = (actor: Actor) => actor.restrictions?.appIds ?? null;

export const createExportProcedure = apiProcedure
  .meta({
    openapi: {
      ...EXPORTS,
      method: 'POST',
      path: '/exports',
      summary: 'Export datasets',
      description:
        'Asks for datasets of the account’s apps over a date range as Parquet, CSV or JSON Lines files, written in the background: the answer is the export, `queued`; read it (`GET /exports/{exportId}`) or wait for the `export.completed` event, then download each file by its signed link. It costs a credit a thousand rows (at least one), counted and charged as it is asked for, given back if it fails or is cancelled (the call itself costs nothing more); free in test mode. The plan caps the rows of one export and the exports that run at once (`x-plans`: `exportRows`, `concurrentExports`), 403 `limit-reached` past them.',
      contentTypes: ['application/json'],
    },
    scope: 'read',
    credits: 0,
    tool: 'exports_create',
    accepted: true,
    problems: ['LIMIT_REACHED'],
  })
  .input(createExportInput)
  .output(exportOutput)
  .mutation(async ({ ctx, input }) =>
    toExportOutput(
      await createExport(
        {
          accountId: ctx.actor.accountId,
          mode: ctx.actor.mode,
          plan: ctx.actor.plan,
          creditLimit: ctx.actor.creditLimit,
          keyId: ctx.actor.keyId,
          userId: ctx.actor.userId,
          restrictions: ctx.actor.restrictions && {
            allApps: ctx.actor.restrictions.appIds === null,
            appIds: ctx.actor.restrictions.appIds ?? undefined,
            monthlyBudget: ctx.actor.restrictions.monthlyBudget,
          },
        },
        input,
        ctx.requestId,
        ctx.now,
      ),
    ),
  );

export const getExportProcedure = apiProcedure
  .meta({
    openapi: {
      ...EXPORTS,
      method: 'GET',
      path: '/exports/{exportId}',
      summary: 'Get an export',
      description:
        'One export of the account: its state and progress, and once completed its files, each with its rows, size, SHA-256 and a fresh signed download link. Free.',
    },
    scope: 'read',
    credits: 0,
    tool: 'exports_get',
  })
  .input(exportIdInput)
  .output(exportOutput)
  .query(async ({ ctx, input }) =>
    toExportOutput(await getExport(ctx.actor.accountId, input.exportId, ctx.now, reachOf(ctx.actor))),
  );

export const listExportsProcedure = apiProcedure
  .meta({
    openapi: {
      ...EXPORTS,
      method: 'GET',
      path: '/exports',
      summary: 'List exports',
      description: 'The account’s last 100 exports, newest first. Free.',
    },
    scope: 'read',
    credits: 0,
    tool: 'exports_list',
  })
  .input(z.object({}).optional())
  .output(z.array(exportOutput))
  .query(async ({ ctx }) => (await listExports(ctx.actor.accountId, ctx.now, reachOf(ctx.actor))).map(toExportOutput));

export const cancelExportProcedure = apiProcedure
  .meta({
    openapi: {
      ...EXPORTS,
      method: 'POST',
      path: '/exports/{exportId}/cancel',
      summary: 'Cancel an export',
      description:
        'Cancels a queued export at once, a running one at its next batch; its credits are given back and nothing is kept. An export that already ended is answered as it is (its `state` says whether the cancel or its end came first): a cancel that races the end is no error. Free.',
    },
    scope: 'read',
    credits: 0,
    tool: 'exports_cancel',
  })
  .input(exportIdInput)
  .output(exportOutput)
  .mutation(async ({ ctx, input }) =>
    toExportOutput(await cancelExport(ctx.actor.accountId, input.exportId, ctx.now, reachOf(ctx.actor))),
  );
