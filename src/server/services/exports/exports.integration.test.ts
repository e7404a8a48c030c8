// Exports (issue 68): a dataset written by the worker and read back by DuckDB is row for row what the API answers;
// quoted, charged once and given back when it fails or is cancelled; a worker that died mid-export leaves exactly one
// whole file once the export is taken again; a signed link that expired or was altered is refused; another account's
// export is not found; the plan's caps hold.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { claimNextExport } from '@/server/db/export-statements';
import { keywordHistory } from '@/server/services/aso/keywords';
import { creditsUsed } from '@/server/services/metering/credits';
import { FIXED_DAY, makeAsoApp } from '../../../../test/aso-fixture';
import { readWithDuckDb } from '../../../../test/duckdb';
import { makeAccount } from '../../../../test/factories';
import { fileSink, storedBytes } from './export-storage';
import { removeExpiredExports, runNextExport } from './export-worker';
import { cancelExport, createExport, type ExportActor, fileOfLink, getExport } from './exports';

const folder = mkdtempSync(path.join(tmpdir(), 'exports-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const actorOf = (owner: { accountId: string; userId: string }, plan: ExportActor['plan'] = 'pro'): ExportActor => ({
  accountId: owner.accountId,
  mode: 'live',
  plan,
  creditLimit: 5_000,
  userId: owner.userId,
});

/** Runs the worker on the export's account until the export ended (other files' accounts' exports are theirs). */
async function runUntilEnded(id: string): Promise<void> {
  for (let turns = 0; turns < 50; turns++) {
    const row = await db.export.findUniqueOrThrow({ where: { id }, select: { state: true, accountId: true } });
    if (row.state !== 'queued' && row.state !== 'running') return;
    await runNextExport(new Date(), () => false, row.accountId);
  }
  throw new Error('the export did not end');
}

async function fileOnDisk(fileId: string, name: string): Promise<string> {
  const parts: Uint8Array[] = [];
  const stored = await db.exportFile.findUniqueOrThrow({ where: { id: fileId } });
  for await (const chunk of storedBytes(stored)) parts.push(chunk);
  const file = path.join(folder, name);
  writeFileSync(file, Buffer.concat(parts));
  return file;
}

const WINDOW = { from: '2026-01-02', to: '2026-06-30' };

describe('exports', () => {
  it('writes a year of keyword ranks that DuckDB reads back row for row as the keyword history answers, as Parquet and CSV', async () => {
    const { owner, app } = await makeAsoApp({ storeId: '700000681' });
    const keywords = await db.trackedKeyword.findMany({ where: { appId: app.id }, orderBy: { id: 'asc' } });
    const expected: Record<string, unknown>[] = [];
    for (const keyword of keywords) {
      const history = await keywordHistory(owner.accountId, { appId: app.id, keywordId: keyword.id, days: 180 });
      expect(history.from).toBe(WINDOW.from);
      for (const point of history.points)
        expected.push({
          keyword_id: keyword.id,
          term: keyword.term,
          country: keyword.country,
          date: point.date,
          rank: point.rank,
          status: point.status,
        });
    }
    expect(expected.some((row) => row.status === 'unranked') || expected.some((row) => row.status === 'ranked')).toBe(
      true,
    );
    const before = await creditsUsed(owner.accountId, new Date());
    for (const format of ['parquet', 'csv'] as const) {
      const asked = await createExport(
        actorOf(owner),
        { datasets: ['keyword_ranks'], ...WINDOW, format },
        randomUUID(),
        new Date(),
      );
      expect(asked).toMatchObject({ state: 'queued', credits: 1, progress: { rowsEstimated: expected.length } });
      await runUntilEnded(asked.id);
      const done = await getExport(owner.accountId, asked.id, new Date());
      expect(done).toMatchObject({ state: 'completed', progress: { percent: 100, rowsDone: expected.length } });
      const [file] = done.files;
      expect(file).toMatchObject({ dataset: 'keyword_ranks', rows: expected.length });
      const onDisk = await fileOnDisk(file!.id, `ranks.${format}`);
      const reader =
        format === 'parquet'
          ? `read_parquet('${onDisk}')`
          : `read_csv('${onDisk}', header = true, types = {'rank': 'INTEGER', 'date': 'DATE'})`;
      const read = await readWithDuckDb(
        `SELECT keyword_id, term, country, strftime(date, '%Y-%m-%d') AS date, rank, status FROM ${reader} ORDER BY keyword_id, date`,
      );
      expect(read).toEqual(expected);
      // The link downloads it; its hash is the file's.
      const link = new URL(file!.url);
      expect(
        await fileOfLink(file!.id, link.searchParams.get('expires'), link.searchParams.get('signature'), new Date()),
      ).toMatchObject({ ok: true, file: { sha256: file!.sha256 } });
    }
    // Each charged once, a credit for its rows.
    expect((await creditsUsed(owner.accountId, new Date())) - before).toBe(2);
  });

  it('refuses a link that expired or was altered, removes files past their days, and hides another account’s export', async () => {
    const { owner } = await makeAsoApp({ storeId: '700000682' });
    const asked = await createExport(
      actorOf(owner),
      { datasets: ['ratings'], ...WINDOW, format: 'jsonl' },
      randomUUID(),
      new Date(),
    );
    await runUntilEnded(asked.id);
    const [file] = (await getExport(owner.accountId, asked.id, new Date())).files;
    const link = new URL(file!.url);
    const [expires, signature] = [link.searchParams.get('expires'), link.searchParams.get('signature')];
    const later = new Date(Date.now() + 2 * 3_600_000);
    expect(await fileOfLink(file!.id, expires, signature, later)).toMatchObject({ ok: false, status: 403 });
    expect(await fileOfLink(file!.id, String(Number(expires) + 3600), signature, new Date())).toMatchObject({
      ok: false,
      status: 403,
    });
    // Past its files' days (this export's alone: other files' exports are theirs), the expiry removes them.
    await db.export.update({ where: { id: asked.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect(await removeExpiredExports(new Date())).toBeGreaterThanOrEqual(1);
    expect(await db.exportFile.count({ where: { exportId: asked.id } })).toBe(0);
    const stranger = await makeAccount('pro');
    await expect(getExport(stranger.accountId, asked.id, new Date())).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
  });

  it('gives a worker’s dead run up: taken again, it writes exactly one whole file per dataset', async () => {
    const { owner } = await makeAsoApp({ storeId: '700000683' });
    const asked = await createExport(
      actorOf(owner),
      { datasets: ['keyword_ranks', 'category_ranks'], ...WINDOW, format: 'csv' },
      randomUUID(),
      new Date(),
    );
    // A worker takes it, writes half a file, and dies (its claim goes stale).
    const claimed = await claimNextExport(new Date(Date.now() - 60_000), owner.accountId);
    expect(claimed?.id).toBe(asked.id);
    const partial = await db.exportFile.create({ data: { exportId: asked.id, dataset: 'keyword_ranks' } });
    const sink = fileSink(partial, 'text/csv');
    await sink.write(new TextEncoder().encode('app_id,keyword_id\r\nhalf a file'));
    await sink.close();
    await db.export.update({ where: { id: asked.id }, data: { claimedAt: new Date(Date.now() - 120_000) } });
    await runUntilEnded(asked.id);
    const done = await getExport(owner.accountId, asked.id, new Date());
    expect(done.state).toBe('completed');
    expect(done.files.map((file) => file.dataset)).toEqual(['category_ranks', 'keyword_ranks']);
    expect(await db.exportFile.count({ where: { exportId: asked.id } })).toBe(2);
    const csv = await fileOnDisk(done.files[1]!.id, 'resumed.csv');
    const counted = (await readWithDuckDb(
      `SELECT count(*)::INTEGER AS rows FROM read_csv('${csv}', header = true)`,
    )) as {
      rows: number;
    }[];
    expect(counted[0]!.rows).toBe(done.files[1]!.rows);
  });

  it('gives the credits of a cancelled export back, and holds the plan’s caps', async () => {
    const { owner, app } = await makeAsoApp({ storeId: '700000684' });
    const before = await creditsUsed(owner.accountId, new Date());
    const asked = await createExport(
      actorOf(owner),
      { datasets: ['keyword_ranks'], appIds: [app.id], ...WINDOW, format: 'parquet' },
      randomUUID(),
      new Date(),
    );
    expect((await creditsUsed(owner.accountId, new Date())) - before).toBe(1);
    // Pro runs two at once: a third waits.
    const second = await createExport(
      actorOf(owner),
      { datasets: ['ratings'], ...WINDOW, format: 'csv' },
      randomUUID(),
      new Date(),
    );
    await expect(
      createExport(actorOf(owner), { datasets: ['ratings'], ...WINDOW, format: 'csv' }, randomUUID(), new Date()),
    ).rejects.toMatchObject({ appCode: 'LIMIT_REACHED' });
    expect(await cancelExport(owner.accountId, asked.id, new Date())).toMatchObject({ state: 'cancelled' });
    await cancelExport(owner.accountId, second.id, new Date());
    expect((await creditsUsed(owner.accountId, new Date())) - before).toBe(0);
    // Cancelled again, or once it ended: answered as it is, nothing given back twice.
    expect(await cancelExport(owner.accountId, asked.id, new Date())).toMatchObject({ state: 'cancelled' });
    expect((await creditsUsed(owner.accountId, new Date())) - before).toBe(0);
    // Past the plan's rows: refused, saying how many it would hold (the Free tier's cap, 0, as a small one).
    await expect(
      createExport(
        actorOf(owner, 'free'),
        { datasets: ['keyword_ranks'], ...WINDOW, format: 'csv' },
        randomUUID(),
        new Date(),
      ),
    ).rejects.toMatchObject({ appCode: 'LIMIT_REACHED', message: expect.stringContaining('rows at once') });
    // A day after today, or a range backwards: a clear 400, nothing charged.
    await expect(
      createExport(
        actorOf(owner),
        { datasets: ['ratings'], from: '2026-06-30', to: '2026-01-01', format: 'csv' },
        randomUUID(),
        new Date(),
      ),
    ).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR' });
    expect(FIXED_DAY.toISOString().slice(0, 10)).toBe(WINDOW.to);
  });
});
