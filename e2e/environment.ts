// For the specs that run the server's modules in the test process (a second app, a database they restart): they
// change the environment, and the configuration module (src/server/core/config.ts) reads it again.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, type APIRequest } from '@playwright/test';
import { resetConfig } from '../src/server/core/config';
import { ensureDatabase } from '../src/server/db/embedded';
import { serverArgs } from '../src/server/runtime/server-process';

/** Sets each variable, or unsets it for undefined. */
export function setEnvironment(changes: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
}

/**
 * A second `next start` of the same build on the e2e server's database (joined through DATA_DIR), on `port`, and a
 * request context for it, once it is healthy. The caller stops the process.
 */
export async function startSecondApp(port: number, api: APIRequest) {
  setEnvironment({ DATA_DIR: '.data/e2e' });
  const database = await ensureDatabase();
  const child = spawn(process.execPath, serverArgs('start', port), {
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      NEXTAUTH_SECRET: readFileSync('.data/e2e/auth-secret', 'utf8').trim(),
      DATA_ENCRYPTION_KEY: readFileSync('.data/e2e/data-encryption-key', 'utf8').trim(),
      LOG_REQUESTS: 'false',
    },
  });
  const request = await api.newContext({ baseURL: `http://localhost:${port}` });
  await expect
    .poll(async () => (await request.get('/api/health').catch(() => null))?.status(), { timeout: 60_000 })
    .toBe(200);
  return { process: child, request };
}
