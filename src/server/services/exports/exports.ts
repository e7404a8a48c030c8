// Bulk exports (issue 68; docs/api-decisions.md, "Exports"): an account asks for datasets of its apps over a date
// range in one format; the background work writes the files (./export-worker.ts); each file downloads by a link that
// expires, signed as S3's presigned URLs are (no credential in the address). An export is quoted and charged as it is
// asked for, a credit a thousand rows, and given back if it fails or is cancelled; test mode's are free. A plan caps
// the rows of one export and the exports that run at once.
import type { PlanTier } from '@/generated/prisma/enums';
import { db } from '@/server/db';
import { addDays, isoDay, startOfUtcDay } from '@/server/core/dates';
import { pageOrigin } from '@/server/core/origin';
import { authSecret } from '@/server/auth/session-token';
import { AppError } from '@/server/errors/app-error';
import { PLANS } from '@/server/services/accounts/plans';
import { chargeCredits, refundCharge } from '@/server/services/metering/credits';
import { downloadLinkSignature, isDownloadLinkSignature } from './download-links';
import { DATASET_DEFINITIONS, type Dataset, type ExportApp } from './datasets';
import type { ExportFormat } from './file-writers';

/** Rows a credit pays for: a year of one keyword's ranks (365 rows) costs a credit by calls, about 0.37 here. */
export const ROWS_PER_CREDIT = 1_000;
/** How long a completed export's files are kept. */
export const EXPORT_FILE_DAYS = 7;
/** How long a download link works. */
export const LINK_MINUTES = 60;
/** The longest date range one export covers. */
export const MAX_EXPORT_DAYS = 731;
/** Where a file downloads from, under the API's base path. */
export const DOWNLOAD_PATH = '/api/public/v1/export-files';

export const EXPORT_STATES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
type ExportState = (typeof EXPORT_STATES)[number];

export interface NewExport {
  datasets: Dataset[];
  /** The apps; none: every tracked app (for a key restricted to some, those). */
  appIds?: string[];
  /** The storefronts; none: each app's. */
  storefronts?: string[];
  from: string;
  to: string;
  format: ExportFormat;
}

/** Who asks: the call's credential, as the metering and the reach of a key need it. */
export interface ExportActor {
  accountId: string;
  mode: 'live' | 'test';
  plan: PlanTier;
  creditLimit: number | null;
  keyId?: string;
  userId?: string;
  restrictions?: { allApps?: boolean; appIds?: string[]; monthlyBudget?: number | null };
}

interface StoredRequest {
  datasets: Dataset[];
  /** As asked (null: every tracked app). */
  appIds: string[] | null;
  /** The apps it reads, settled as it was asked for (a key's reach included). */
  apps?: string[];
  storefronts: string[] | null;
  from: string;
  to: string;
}

/** The apps an export reads, each with the storefronts asked for that it is tracked in. */
async function exportApps(actor: ExportActor, request: StoredRequest): Promise<ExportApp[]> {
  const reach = actor.restrictions?.allApps === false ? (actor.restrictions.appIds ?? []) : null;
  const apps = await db.trackedApp.findMany({
    where: {
      accountId: actor.accountId,
      ...(request.appIds && { id: { in: request.appIds } }),
      ...(reach && { id: { in: reach } }),
    },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: {
      id: true,
      store: true,
      storeAppId: true,
      primaryCountry: true,
      storefronts: { select: { country: true }, orderBy: { country: 'asc' } },
      storeApp: { select: { livemode: true } },
    },
  });
  return apps.map((app) => ({
    id: app.id,
    store: app.store,
    storeAppId: app.storeAppId,
    livemode: app.storeApp.livemode,
    primaryCountry: app.primaryCountry,
    storefronts: app.storefronts
      .map((storefront) => storefront.country)
      .filter((country) => !request.storefronts || request.storefronts.includes(country)),
  }));
}

function windowOf(request: Pick<StoredRequest, 'from' | 'to'>) {
  return { from: new Date(`${request.from}T00:00:00Z`), to: new Date(`${request.to}T00:00:00Z`) };
}

/** The rows each dataset of the export holds, as the worker will write them. */
async function estimate(apps: ExportApp[], request: StoredRequest): Promise<number> {
  let rows = 0;
  for (const dataset of request.datasets)
    for (const app of apps) rows += await DATASET_DEFINITIONS[dataset].count(app, windowOf(request));
  return rows;
}

function creditsFor(rows: number, mode: 'live' | 'test'): number {
  return mode === 'test' ? 0 : Math.max(1, Math.ceil(rows / ROWS_PER_CREDIT));
}

const refuse = (pointer: string, detail: string) =>
  new AppError('VALIDATION_ERROR', detail, { errors: [{ in: 'body', pointer, detail }] });

/**
 * Asks for an export: checked (the dates, the apps in the credential's reach, the plan's rows and exports at once),
 * quoted and charged, then queued for the background work.
 */
export async function createExport(actor: ExportActor, input: NewExport, requestId: string, now: Date) {
  const today = isoDay(startOfUtcDay(now));
  if (input.from > input.to) throw refuse('#/from', '`from` must be on or before `to`.');
  if (input.to > today) throw refuse('#/to', `\`to\` must be on or before today (${today}, UTC).`);
  const days = (Date.parse(input.to) - Date.parse(input.from)) / 86_400_000 + 1;
  if (days > MAX_EXPORT_DAYS)
    throw refuse('#/from', `An export covers at most ${MAX_EXPORT_DAYS} days; this one asks for ${days}.`);
  const request: StoredRequest = {
    datasets: [...new Set(input.datasets)],
    appIds: input.appIds?.length ? [...new Set(input.appIds)] : null,
    storefronts: input.storefronts?.length ? [...new Set(input.storefronts)] : null,
    from: input.from,
    to: input.to,
  };
  const apps = await exportApps(actor, request);
  const missing = request.appIds?.findIndex((id) => !apps.some((app) => app.id === id)) ?? -1;
  if (missing !== -1)
    throw new AppError(
      'NOT_FOUND',
      `\`appIds[${missing}]\` is not an app your account tracks (or one in this key’s reach). Nothing was charged.`,
    );
  if (!apps.length) throw refuse('#/appIds', 'There is no app to export: track one first.');
  const caps = PLANS[actor.plan].caps;
  const rows = await estimate(apps, request);
  if (caps.exportRows !== null && rows > caps.exportRows)
    throw new AppError(
      'LIMIT_REACHED',
      `The ${PLANS[actor.plan].label} plan exports at most ${caps.exportRows.toLocaleString('en-US')} rows at once; this export would hold ${rows.toLocaleString('en-US')}. Ask for fewer datasets, apps or days, or choose a larger plan. Nothing was charged.`,
    );
  const running = await db.export.count({
    where: { accountId: actor.accountId, state: { in: ['queued', 'running'] } },
  });
  if (caps.concurrentExports !== null && running >= caps.concurrentExports)
    throw new AppError(
      'LIMIT_REACHED',
      `The ${PLANS[actor.plan].label} plan runs ${caps.concurrentExports} export${caps.concurrentExports === 1 ? '' : 's'} at once, and ${running === 1 ? 'one is' : `${running} are`} running: ask again once it is done (its \`export.completed\` event), or cancel it. Nothing was charged.`,
    );
  const credits = creditsFor(rows, actor.mode);
  if (credits > 0) {
    const outcome = await chargeCredits({
      accountId: actor.accountId,
      keyId: actor.keyId ?? null,
      keyBudget: actor.restrictions?.monthlyBudget ?? null,
      userId: actor.userId ?? null,
      endpoint: 'POST /exports',
      cost: credits,
      requestId,
      limit: actor.creditLimit,
      now,
    });
    if (!outcome.charged)
      throw new AppError(
        outcome.refused === 'credits' ? 'CREDITS_EXHAUSTED' : 'KEY_BUDGET_EXHAUSTED',
        `This export holds ${rows.toLocaleString('en-US')} rows and costs ${credits} credits (one a ${ROWS_PER_CREDIT.toLocaleString('en-US')} rows), more than ${outcome.refused === 'credits' ? 'the account has left this month' : 'this key’s monthly budget has left'}. Nothing was charged.`,
      );
  }
  try {
    const row = await db.export.create({
      data: {
        accountId: actor.accountId,
        request: { ...request, apps: apps.map((app) => app.id) },
        format: input.format,
        state: 'queued',
        rowsEstimated: BigInt(rows),
        credits,
        chargeRequestId: credits > 0 ? requestId : null,
        expiresAt: addDays(now, EXPORT_FILE_DAYS),
      },
      select: { id: true },
    });
    return getExport(actor.accountId, row.id, now);
  } catch (error) {
    if (credits > 0) await refundCharge(actor.accountId, requestId);
    throw error;
  }
}

/**
 * A signed link to a file, valid LINK_MINUTES at least: the signature covers the file and the expiry (HMAC-SHA256).
 * The expiry is rounded up to the hour, so that the reads of one hour give the same link (a client may compare them).
 */
function downloadLink(fileId: string, now: Date): { url: string; expiresAt: Date } {
  const expires = Math.ceil((now.getTime() / 1000 + LINK_MINUTES * 60) / 3600) * 3600;
  const signature = downloadLinkSignature(authSecret(), fileId, expires);
  return {
    url: `${pageOrigin()}${DOWNLOAD_PATH}/${fileId}?expires=${expires}&signature=${signature}`,
    expiresAt: new Date(expires * 1000),
  };
}

/**
 * The file a signed link names, if the link is whole and unexpired and the file is whole and kept: otherwise why not,
 * as the download answers it (403 for a link that is not valid or has expired, 404 for a file that is gone).
 */
export async function fileOfLink(
  fileId: string,
  expires: string | null,
  signature: string | null,
  now: Date,
): Promise<
  | {
      ok: true;
      file: {
        id: string;
        dataset: string;
        bytes: bigint;
        sha256: string;
        format: ExportFormat;
        storage: string;
        storageKey: string | null;
      };
    }
  | { ok: false; status: 403 | 404; detail: string }
> {
  const seconds = Number(expires);
  if (!Number.isInteger(seconds) || !isDownloadLinkSignature(authSecret(), fileId, seconds, signature ?? ''))
    return { ok: false, status: 403, detail: 'This download link is not valid: ask the export again for a fresh one.' };
  if (seconds * 1000 < now.getTime())
    return {
      ok: false,
      status: 403,
      detail: `This download link expired at ${new Date(seconds * 1000).toISOString()}: GET /exports/{exportId} gives a fresh one.`,
    };
  const file = await db.exportFile.findUnique({
    where: { id: fileId },
    select: {
      id: true,
      dataset: true,
      bytes: true,
      sha256: true,
      storage: true,
      storageKey: true,
      completedAt: true,
      export: { select: { format: true, state: true, expiresAt: true } },
    },
  });
  if (!file?.completedAt || file.export.state !== 'completed' || file.export.expiresAt < now)
    return { ok: false, status: 404, detail: 'This file is no longer kept: exports’ files are removed after 7 days.' };
  return {
    ok: true,
    file: {
      id: file.id,
      dataset: file.dataset,
      bytes: file.bytes,
      sha256: file.sha256!,
      format: file.export.format as ExportFormat,
      storage: file.storage,
      storageKey: file.storageKey,
    },
  };
}

const EXPORT_SELECT = {
  id: true,
  request: true,
  format: true,
  state: true,
  rowsEstimated: true,
  rowsDone: true,
  credits: true,
  error: true,
  createdAt: true,
  startedAt: true,
  completedAt: true,
  expiresAt: true,
  files: {
    orderBy: { dataset: 'asc' as const },
    select: { id: true, dataset: true, rows: true, bytes: true, sha256: true, completedAt: true },
  },
};

type ExportRow = Awaited<ReturnType<typeof readExport>>;

function readExport(accountId: string, id: string) {
  return db.export.findFirst({ where: { id, accountId }, select: EXPORT_SELECT });
}

function viewOf(row: NonNullable<ExportRow>, now: Date) {
  const request = row.request as unknown as StoredRequest;
  const estimated = Number(row.rowsEstimated);
  const done = Number(row.rowsDone);
  return {
    id: row.id,
    state: row.state as ExportState,
    format: row.format as ExportFormat,
    datasets: request.datasets,
    appIds: request.appIds,
    storefronts: request.storefronts,
    from: request.from,
    to: request.to,
    progress: {
      rowsDone: done,
      rowsEstimated: estimated,
      percent: row.state === 'completed' ? 100 : estimated ? Math.min(99, Math.floor((done / estimated) * 100)) : 0,
    },
    credits: row.credits,
    files:
      row.state === 'completed'
        ? row.files.map((file) => ({
            id: file.id,
            dataset: file.dataset as Dataset,
            rows: Number(file.rows),
            bytes: Number(file.bytes),
            sha256: file.sha256!,
            ...downloadLink(file.id, now),
          }))
        : [],
    error: row.error,
    createdAt: row.createdAt,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    expiresAt: row.expiresAt,
  };
}

export type ExportView = ReturnType<typeof viewOf>;

/**
 * The apps a credential reaches, for the exports it may see: a key restricted to chosen apps sees only the exports
 * whose apps are all among them (an export of others holds their data); null: every app.
 */
export type ExportReach = string[] | null;

const within = (row: { request: unknown }, reach: ExportReach) =>
  reach === null || ((row.request as StoredRequest).apps ?? []).every((app) => reach.includes(app));

export async function getExport(
  accountId: string,
  id: string,
  now: Date,
  reach: ExportReach = null,
): Promise<ExportView> {
  const row = await readExport(accountId, id);
  if (!row || !within(row, reach)) throw new AppError('NOT_FOUND', 'No export of your account has this id.');
  return viewOf(row, now);
}

/** The account's exports, newest first (those whose files are gone too, for a while: their history). */
export async function listExports(accountId: string, now: Date, reach: ExportReach = null): Promise<ExportView[]> {
  const rows = await db.export.findMany({
    where: { accountId },
    orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
    take: 100,
    select: EXPORT_SELECT,
  });
  return rows.filter((row) => within(row, reach)).map((row) => viewOf(row, now));
}

/**
 * Cancels an export: a queued one at once, a running one as its worker next looks (between batches); its credits
 * are given back and its files removed. One that ended is answered as it is, as BigQuery's jobs.cancel does: a cancel
 * that races the export's end (an agent's retry, a worker that was quicker) is no error, and the state says which won.
 */
export async function cancelExport(
  accountId: string,
  id: string,
  now: Date,
  reach: ExportReach = null,
): Promise<ExportView> {
  const row = await db.export.findFirst({ where: { id, accountId }, select: { state: true, request: true } });
  if (!row || !within(row, reach)) throw new AppError('NOT_FOUND', 'No export of your account has this id.');
  const { count } = await db.export.updateMany({
    where: { id, state: 'queued' },
    data: { state: 'cancelled', completedAt: now, error: 'Cancelled before it started.' },
  });
  if (count) await giveCreditsBack(id);
  else if (row.state === 'running')
    await db.export.updateMany({ where: { id, state: 'running' }, data: { cancelRequested: true } });
  return getExport(accountId, id, now, reach);
}

/** Gives an export's credits back (it failed, or was cancelled): once, whoever asks. */
export async function giveCreditsBack(id: string): Promise<void> {
  const row = await db.export.findUnique({ where: { id }, select: { accountId: true, chargeRequestId: true } });
  if (!row?.chargeRequestId) return;
  const { count } = await db.export.updateMany({
    where: { id, chargeRequestId: row.chargeRequestId },
    data: { chargeRequestId: null },
  });
  if (count) await refundCharge(row.accountId, row.chargeRequestId);
}

/** What the worker needs of an export to run it. */
export async function exportToRun(id: string) {
  const row = await db.export.findUniqueOrThrow({
    where: { id },
    select: { id: true, accountId: true, request: true, format: true, account: { select: { plan: true } } },
  });
  const request = row.request as unknown as StoredRequest;
  const actor: ExportActor = { accountId: row.accountId, mode: 'live', plan: row.account.plan, creditLimit: null };
  return {
    id: row.id,
    accountId: row.accountId,
    format: row.format as ExportFormat,
    datasets: request.datasets,
    window: windowOf(request),
    apps: await exportApps(actor, { ...request, appIds: request.apps ?? request.appIds }),
  };
}
