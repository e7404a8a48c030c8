// Integration tests run against a real PostgreSQL: a fresh embedded cluster under .data/test-vitest/<project>,
// migrated exactly as the app migrates at start.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../src/server/runtime/prepare';
import { TEST_DATA_ENCRYPTION_KEY } from './data-key';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  // A cluster per project: a project whose files need the database to themselves has one of its own.
  const dataDir = path.resolve(`.data/test-vitest/${project.name.replaceAll(/[^a-z0-9-]/gi, '-')}`);
  await rm(dataDir, { recursive: true, force: true });
  process.env.DATA_DIR = dataDir;
  delete process.env.DATABASE_URL;
  process.env.DATA_ENCRYPTION_KEY = TEST_DATA_ENCRYPTION_KEY;
  const database = await prepareDatabase(() => {});
  project.provide('databaseUrl', database.url);
  project.provide('dataDir', dataDir);
  return async () => {
    await database.stop();
  };
}
