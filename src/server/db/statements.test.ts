// Every hand-written SQL statement lives in the data layer (src/server/db): services call a named function for it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

it('no code outside src/server/db writes SQL of its own', () => {
  const files = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith('src/server/db/') && !file.startsWith('src/generated/'));
  const writers = files.filter((file) =>
    /\bhotQuery\b|\$queryRaw|\$executeRaw|Prisma\.sql\b/.test(readFileSync(path.join(ROOT, file), 'utf8')),
  );
  expect(writers).toEqual([]);
});
