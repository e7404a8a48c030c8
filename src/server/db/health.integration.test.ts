import { afterEach, describe, expect, it } from 'vitest';
import { disconnectDb } from './index';
import { databaseHealth } from './health';

const realUrl = process.env.DATABASE_URL;

afterEach(async () => {
  process.env.DATABASE_URL = realUrl;
  await disconnectDb();
});

describe('health', () => {
  it('is ok when the database is reachable and every migration is applied', async () => {
    expect(await databaseHealth()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('is unavailable when the database cannot be reached', async () => {
    await disconnectDb();
    process.env.DATABASE_URL = 'postgresql://nobody:nothing@127.0.0.1:1/none';
    expect(await databaseHealth()).toEqual({ status: 'unavailable', database: 'unreachable' });
  });

  it('is unavailable while migrations are pending', async () => {
    await disconnectDb();
    const url = new URL(realUrl!);
    url.pathname = '/postgres'; // the cluster's maintenance database: reachable, never migrated
    process.env.DATABASE_URL = url.toString();
    expect(await databaseHealth()).toEqual({ status: 'unavailable', database: 'migrations pending' });
  });
});
