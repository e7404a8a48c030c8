// Everything the app needs before it serves a request: a database (embedded unless DATABASE_URL is set),
// its migrations, the session signing secret and, on request, the demo data. Used by `npm start`, the
// operator CLI and the tests, so they all run on the same set-up.
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDirectory, ensureDatabase, type DatabaseHandle, type EnsureOptions } from '@/server/db/embedded';
import { applyMigrations } from '@/server/db/migrate';
import { config, exportToEnvironment } from '@/server/core/config';
import { generateDataKey } from '@/server/core/data-encryption';
import { sealStoredSecrets } from '@/server/services/webhooks/secrets';

/**
 * DATA_PROVIDER, when unset: `demo` on the embedded database (a try-out, the tests), `stores` on a DATABASE_URL (a
 * deployment, which must not serve invented data for want of a setting). Settled before the embedded cluster's URL
 * is exported, and exported itself, so that the processes this one starts agree.
 */
export function settleDataProvider(): void {
  if (!config().DATA_PROVIDER) exportToEnvironment({ DATA_PROVIDER: config().DATABASE_URL ? 'stores' : 'demo' });
}

/**
 * `onGiveUp`: the embedded cluster this process starts is kept running (src/server/db/embedded.ts, supervise);
 * `settings`: server settings for it.
 */
export async function prepareDatabase(
  log: (line: string) => void,
  options: Pick<EnsureOptions, 'onGiveUp' | 'settings'> = {},
): Promise<DatabaseHandle> {
  settleDataProvider();
  const database = await ensureDatabase({ log, ...options });
  try {
    await applyMigrations(database.url, log);
  } catch (error) {
    await database.stop();
    throw error;
  }
  exportToEnvironment({ DATABASE_URL: database.url });
  await ensureDataEncryptionKey();
  // Secrets stored before they were sealed (an upgrade) are sealed now, before anything reads them.
  const sealed = await sealStoredSecrets({ onlyUnsealed: true });
  if (sealed) log(`sealed ${sealed} webhook signing secrets stored in the clear`);
  return database;
}

/** The file's value, or `create()`'s written to it; two processes creating it at once both read the one written. */
async function readOrCreate(file: string, create: () => string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const value = create();
  try {
    await writeFile(file, value + '\n', { mode: 0o600, flag: 'wx' });
    return value;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}

/** DATA_ENCRYPTION_KEY, or one generated once and kept in DATA_DIR (like the session secret, and apart from it). */
async function ensureDataEncryptionKey(): Promise<string> {
  const configured = config().DATA_ENCRYPTION_KEY;
  if (configured) return configured;
  await mkdir(dataDirectory(), { recursive: true });
  const key = await readOrCreate(path.join(dataDirectory(), 'data-encryption-key'), generateDataKey);
  exportToEnvironment({ DATA_ENCRYPTION_KEY: key });
  return key;
}

/** NEXTAUTH_SECRET, or one generated once and kept in DATA_DIR, so sessions survive restarts. */
export async function ensureAuthSecret(): Promise<string> {
  const configured = config().NEXTAUTH_SECRET;
  if (configured) return configured;
  const secret = await readOrCreate(path.join(dataDirectory(), 'auth-secret'), () =>
    randomBytes(32).toString('base64url'),
  );
  exportToEnvironment({ NEXTAUTH_SECRET: secret });
  return secret;
}

/** DEMO_PASSWORD, or one generated on the first seed and kept in DATA_DIR so that every start can print it. */
export async function demoPassword(generate: () => string): Promise<string> {
  return config().DEMO_PASSWORD ?? readOrCreate(path.join(dataDirectory(), 'demo-password'), generate);
}
