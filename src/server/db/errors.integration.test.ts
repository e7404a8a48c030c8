// Which real errors count as "the database cannot be reached" (503) and which do not (500): each produced for real,
// against a closed port, a missing socket, a terminated backend, a pool with every connection busy and the test
// database.
import { readFile } from 'node:fs/promises';
import { PrismaPg } from '@prisma/adapter-pg';
import { TRPCError } from '@trpc/server';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PrismaClient } from '@/generated/prisma/client';
import { toAppError } from '@/server/api/errors';
import { freePort } from './embedded';
import { isDatabaseUnavailable } from './errors';

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

async function withClient<T>(config: pg.ClientConfig, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  client.on('error', () => {});
  try {
    return await run(client);
  } finally {
    await client.end().catch(() => {});
  }
}

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection, a missing socket, a terminated backend and Prisma’s wrapping of them', async () => {
    const port = await freePort(); // nothing listens there
    const refused = await failure(() => withClient({ host: '127.0.0.1', port }, (client) => client.connect()));
    const noSocket = await failure(() =>
      withClient({ host: '/nonexistent-socket-dir', port: 5432 }, (client) => client.connect()),
    );
    const terminated = await withClient({ connectionString: process.env.DATABASE_URL }, async (client) => {
      await client.connect();
      const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const sleeping = failure(() => client.query('SELECT pg_sleep(30)'));
      await withClient({ connectionString: process.env.DATABASE_URL }, async (admin) => {
        await admin.connect();
        await new Promise((resolve) => setTimeout(resolve, 100));
        await admin.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      });
      return sleeping;
    });
    const prisma = new PrismaClient({
      adapter: new PrismaPg({ connectionString: `postgresql://x:y@127.0.0.1:${port}/none` }),
    });
    const throughPrisma = await failure(() => prisma.$queryRaw`SELECT 1`);
    await prisma.$disconnect();

    expect((refused as { code: string }).code).toBe('ECONNREFUSED');
    expect((noSocket as { code: string }).code).toBe('ENOENT');
    expect((terminated as { code: string }).code).toBe('57P01');
    for (const error of [refused, noSocket, terminated, throughPrisma]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(true);
      // As the REST pipeline and the dashboard see them: wrapped by tRPC.
      expect(isDatabaseUnavailable(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error as Error }))).toBe(true);
    }
    const { error, unexpected } = toAppError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: refused as Error }));
    expect(error.appCode).toBe('SERVICE_UNAVAILABLE');
    expect(error.headers).toEqual({ 'Retry-After': '5' });
    expect(unexpected).toBe(true);
  });

  it('recognises an interactive transaction that got no connection in time: every connection busy', async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 50 } });
    try {
      // The one connection held for 3 s, far beyond the 50 ms the next transaction waits for it.
      let started!: () => void;
      const running = new Promise<void>((resolve) => (started = resolve));
      // It waits as long as opening that connection takes on a busy machine; only the second is held to 50 ms.
      const holding = prisma.$transaction(async (tx) => (started(), tx.$queryRaw`SELECT pg_sleep(3)::text`), {
        maxWait: 30_000,
        timeout: 30_000,
      });
      await Promise.race([running, holding]);
      const busy = await failure(() => prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1`));
      await holding;
      expect(busy).toMatchObject({ code: 'P2028' });
      // The one that gave up left nothing behind: the pool's one connection serves the next transaction.
      await expect(
        prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1 AS one`, { maxWait: 30_000 }),
      ).resolves.toEqual([{ one: 1 }]);
      expect(isDatabaseUnavailable(busy)).toBe(true);
      expect(toAppError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: busy as Error })).error.appCode).toBe(
        'SERVICE_UNAVAILABLE',
      );
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('recognises an interactive transaction that ran out of its time: rolled back, and retryable', async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    try {
      const expired = await failure(() =>
        prisma.$transaction(
          async (tx) => {
            await tx.$queryRaw`CREATE TEMPORARY TABLE expired_marker (id int)`;
            await new Promise((resolve) => setTimeout(resolve, 300));
            return tx.$queryRaw`SELECT 1`;
          },
          { maxWait: 30_000, timeout: 100 },
        ),
      );
      expect(expired).toMatchObject({ code: 'P2028', message: expect.stringMatching(/expired transaction/) });
      expect(isDatabaseUnavailable(expired)).toBe(true);
      expect(toAppError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: expired as Error })).error.appCode).toBe(
        'SERVICE_UNAVAILABLE',
      );
      // Nothing of it was kept, and its connection serves the next one.
      await expect(prisma.$queryRaw`SELECT to_regclass('pg_temp.expired_marker')::text AS marker`).resolves.toEqual([
        { marker: null },
      ]);
    } finally {
      await prisma.$disconnect();
      await pool.end();
    }
  });

  it('leaves bugs and bad statements alone: they stay internal errors', async () => {
    const syntax = await withClient({ connectionString: process.env.DATABASE_URL }, async (client) => {
      await client.connect();
      return failure(() => client.query('SELEC 1'));
    });
    const missingFile = await failure(() => readFile('/nonexistent/file.json'));
    expect((missingFile as { code: string }).code).toBe('ENOENT');
    for (const error of [
      syntax,
      missingFile,
      new Error('Connection to the moon terminated'),
      new TypeError('x is undefined'),
      null,
      'text',
    ]) {
      expect(isDatabaseUnavailable(error), String(error)).toBe(false);
    }
    expect(toAppError(syntax).error.appCode).toBe('INTERNAL_ERROR');
  });
});
