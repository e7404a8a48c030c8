// Exports kept in an S3-compatible bucket (EXPORT_STORAGE=s3), against a local stand-in written from S3's API reference
// (test/s3-stand-in.ts, which checks every request's SigV4 signature): a file larger than a part is a multipart upload
// read back whole, a small one a single PUT, an upload given up is aborted; an export written there downloads as its
// hash says and DuckDB reads it; its objects go with its files (a run taken again, the expiry); a wrong secret is the
// bucket's refusal.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/server/core/config';
import { db } from '@/server/db';
import { makeAsoApp } from '../../../../test/aso-fixture';
import { parquetRowCount } from '../../../../test/duckdb';
import { startS3StandIn, type S3StandIn } from '../../../../test/s3-stand-in';
import { storedBytes } from './export-storage';
import { removeExpiredExports, runNextExport } from './export-worker';
import { createExport, fileOfLink, getExport } from './exports';
import { s3Bytes, s3Sink } from './s3-storage';

let stand: S3StandIn;
const folder = mkdtempSync(path.join(tmpdir(), 'exports-s3-'));
const SETTINGS = [
  'EXPORT_STORAGE',
  'EXPORT_S3_BUCKET',
  'EXPORT_S3_ENDPOINT',
  'EXPORT_S3_ACCESS_KEY_ID',
  'EXPORT_S3_SECRET_ACCESS_KEY',
];

function useBucket(secret = stand.secretAccessKey) {
  Object.assign(process.env, {
    EXPORT_STORAGE: 's3',
    EXPORT_S3_BUCKET: stand.bucket,
    EXPORT_S3_ENDPOINT: stand.endpoint,
    EXPORT_S3_ACCESS_KEY_ID: stand.accessKeyId,
    EXPORT_S3_SECRET_ACCESS_KEY: secret,
  });
  resetConfig();
}

beforeAll(async () => {
  stand = await startS3StandIn();
  useBucket();
});

afterAll(async () => {
  for (const name of SETTINGS) delete process.env[name];
  resetConfig();
  await stand.close();
  rmSync(folder, { recursive: true, force: true });
});

async function read(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

describe('exports in an S3-compatible bucket', () => {
  it('uploads a file larger than a part in parts, a small one in one PUT, and aborts an upload given up', async () => {
    const large = randomBytes(12 << 20);
    const sink = s3Sink('tests/large.bin', 'application/octet-stream');
    for (let start = 0; start < large.byteLength; start += 1 << 20)
      await sink.write(large.subarray(start, start + (1 << 20)));
    await sink.close();
    expect(stand.requests.filter((request) => request.startsWith('PUT tests/large.bin?'))).toHaveLength(2);
    expect((await read(s3Bytes('tests/large.bin'))).equals(large)).toBe(true);

    const small = s3Sink('tests/small.csv', 'text/csv');
    await small.write(Buffer.from('a,b\r\n1,2\r\n'));
    await small.close();
    expect(stand.requests.at(-1)).toBe('PUT tests/small.csv?x-id=PutObject');
    expect(stand.objects.get('tests/small.csv')?.toString()).toBe('a,b\r\n1,2\r\n');

    const dropped = s3Sink('tests/dropped.bin', 'application/octet-stream');
    await dropped.write(randomBytes(9 << 20));
    expect(stand.uploads.size).toBe(1);
    await dropped.abort();
    expect(stand.uploads.size).toBe(0);
    expect(stand.objects.has('tests/dropped.bin')).toBe(false);
  });

  it('is refused by the bucket with a wrong secret', async () => {
    useBucket('not-the-secret');
    try {
      const sink = s3Sink('tests/refused.csv', 'text/csv');
      await sink.write(Buffer.from('x'));
      await expect(sink.close()).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    } finally {
      useBucket();
    }
  });

  it('writes an export there, downloads it as its hash says, and removes its objects with its files', async () => {
    const { owner } = await makeAsoApp({ storeId: '700000691' });
    const asked = await createExport(
      { accountId: owner.accountId, mode: 'live', plan: 'pro', creditLimit: 5_000, userId: owner.userId },
      { datasets: ['keyword_ranks', 'ratings'], from: '2026-01-02', to: '2026-06-30', format: 'parquet' },
      randomUUID(),
      new Date(),
    );
    // Written, then taken again as if its worker had been taken for dead: what it wrote is removed before it is written
    // anew.
    await runNextExport(new Date(), () => false, owner.accountId);
    const first = await db.exportFile.findMany({ where: { exportId: asked.id }, orderBy: { dataset: 'asc' } });
    expect(first.map((file) => file.storage)).toEqual(['s3', 's3']);
    await db.export.update({
      where: { id: asked.id },
      data: { state: 'running', claimedAt: new Date(Date.now() - 3_600_000) },
    });
    await runNextExport(new Date(), () => false, owner.accountId);
    for (const file of first) expect(stand.objects.has(file.storageKey!)).toBe(false);

    const done = await getExport(owner.accountId, asked.id, new Date());
    expect(done.state).toBe('completed');
    const files = await db.exportFile.findMany({ where: { exportId: asked.id }, orderBy: { dataset: 'asc' } });
    expect(files.map((file) => file.storageKey)).toEqual([
      `exports/${asked.id}/${files[0]!.id}/keyword_ranks.parquet`,
      `exports/${asked.id}/${files[1]!.id}/ratings.parquet`,
    ]);
    for (const listed of done.files) {
      const link = new URL(listed.url);
      const found = await fileOfLink(
        listed.id,
        link.searchParams.get('expires'),
        link.searchParams.get('signature'),
        new Date(),
      );
      if (!found.ok) throw new Error(found.detail);
      const bytes = await read(storedBytes(found.file));
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(listed.sha256);
      const onDisk = path.join(folder, `${listed.dataset}.parquet`);
      writeFileSync(onDisk, bytes);
      expect(await parquetRowCount(onDisk)).toBe(listed.rows);
    }
    // Past its files' days (this export's alone: other files' exports are theirs), the expiry removes the objects too.
    await db.export.update({ where: { id: asked.id }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    await removeExpiredExports(new Date());
    for (const file of files) expect(stand.objects.has(file.storageKey!)).toBe(false);
    expect(await db.exportFile.count({ where: { exportId: asked.id } })).toBe(0);
  });
});
