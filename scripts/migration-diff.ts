// Writes a new Prisma migration offline: `npm run db:diff -- <name>`.
// Prisma 7's CLI downloads its native schema engine, which these machines cannot reach; Prisma 6.19's
// WebAssembly engine (engine: 'js' + the pg driver adapter) computes the same SQL without a download.
// OLD is the schema as of the last commit that touched prisma/migrations, NEW the working schema.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { dataDirectory, ensureDatabase } from '../src/server/db/embedded';

const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  console.error('usage: npm run db:diff -- <snake_case_name>');
  process.exit(1);
}

const toolDir = path.join(dataDirectory(), 'tools', 'prisma6');
if (!existsSync(path.join(toolDir, 'node_modules', 'prisma'))) {
  await mkdir(toolDir, { recursive: true });
  await writeFile(path.join(toolDir, 'package.json'), '{"name":"prisma6-tool","private":true}');
  // No install scripts: the engines they would download are not needed by the WebAssembly engine.
  execFileSync(
    'npm',
    ['install', '--ignore-scripts', '--no-audit', '--no-fund', 'prisma@6.19.3', '@prisma/adapter-pg@6.19.3', 'pg'],
    { cwd: toolDir, stdio: 'inherit' },
  );
}

function withUrl(schema: string): string {
  return schema
    .replace(/^generator client \{[\s\S]*?^\}\n/m, '')
    .replace(/^(datasource db \{\n\s*provider\s*=\s*"postgresql")$/m, '$1\n  url = env("DATABASE_URL")');
}

const emptySchema = 'datasource db {\n  provider = "postgresql"\n}\n';
function lastCommitTouchingMigrations(): string {
  try {
    return execFileSync('git', ['log', '-1', '--format=%H', '--', 'prisma/migrations'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return ''; // a repository without commits yet
  }
}
const lastMigrationCommit = lastCommitTouchingMigrations();
const oldSchema = lastMigrationCommit
  ? execFileSync('git', ['show', `${lastMigrationCommit}:prisma/schema.prisma`], { encoding: 'utf8' })
  : emptySchema;
const newSchema = await readFile('prisma/schema.prisma', 'utf8');
await writeFile(path.join(toolDir, 'old.prisma'), withUrl(oldSchema));
await writeFile(path.join(toolDir, 'new.prisma'), withUrl(newSchema));
await writeFile(
  path.join(toolDir, 'prisma.config.ts'),
  `import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: 'new.prisma',
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
} as never);
`,
);

const database = await ensureDatabase({ log: (line) => console.error(line) });
try {
  const anyFile = path.join(toolDir, 'package.json');
  const sql = execFileSync(
    path.join(toolDir, 'node_modules', '.bin', 'prisma'),
    ['migrate', 'diff', '--from-schema-datamodel', 'old.prisma', '--to-schema-datamodel', 'new.prisma', '--script'],
    {
      cwd: toolDir,
      encoding: 'utf8',
      env: {
        ...process.env,
        DATABASE_URL: database.url,
        PRISMA_SCHEMA_ENGINE_BINARY: anyFile,
        PRISMA_QUERY_ENGINE_LIBRARY: anyFile,
      },
    },
  );
  if (!sql.trim() || /^-- This is an empty migration/m.test(sql)) {
    console.error('No schema change since the last migration.');
  } else {
    const stamp = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
    const folder = path.join('prisma', 'migrations', `${stamp}_${name}`);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'migration.sql'), sql);
    console.log(folder);
  }
} finally {
  await database.stop();
}
