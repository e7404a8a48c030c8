// `prisma generate` on install. Prisma 7's CLI looks for its native schema engine even though generate
// does not run it; any existing file satisfies that check, so no engine download is attempted.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const anyExistingFile = fileURLToPath(import.meta.url);
execFileSync('npx', ['--no-install', 'prisma', 'generate'], {
  stdio: 'inherit',
  env: { PRISMA_SCHEMA_ENGINE_BINARY: anyExistingFile, ...process.env },
});
