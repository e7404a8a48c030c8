// Prisma CLI configuration (generate). Migrations are written offline with scripts/migration-diff.sh and
// applied at start by src/server/db/migrate.ts; `prisma migrate deploy` also works where Prisma's engine
// can be downloaded.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
