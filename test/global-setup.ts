// Integration tests run against a real PostgreSQL: a fresh embedded cluster under .data/test-vitest/<project>,
// migrated exactly as the app migrates at start.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { disconnectDb } from '../src/server/db';
import { prepareDatabase } from '../src/server/runtime/prepare';
import { TEST_DATA_ENCRYPTION_KEY } from './data-key';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  // A cluster per project: the files that need a database to themselves copy theirs from a migrated one nobody uses.
  const dataDir = path.resolve(`.data/test-vitest/${project.name.replaceAll(/[^a-z0-9-]/gi, '-')}`);
  await rm(dataDir, { recursive: true, force: true });
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  process.env.DATA_ENCRYPTION_KEY = TEST_DATA_ENCRYPTION_KEY;
  const database = await prepareDatabase(() => {});
  // No connection of this process stays open on it: test/setup-own-database.ts copies it, which PostgreSQL refuses
  // while anyone is connected to the original.
  await disconnectDb();
  project.provide('databaseUrl', database.url);
  project.provide('dataDir', dataDir);
  return async () => {
    await database.stop();
  };
}
