// The screens never guess a member's role: one that found none offers nothing (issue 63). The server checks every
// call again, but a screen that defaulted a missing role to the owner's failed open: it offered the owner's pages and
// buttons to whoever it could not place. roleAllows (src/server/services/access/roles.ts, its test) allows nothing without one.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx)$/.test(entry.name) && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('a member’s role on the screens', () => {
  it('is never defaulted: no `role ?? …` or `role || …` in the app or its components', () => {
    const defaulted = [...sources(path.join(ROOT, 'app')), ...sources(path.join(ROOT, 'components'))].flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\brole\s*(\?\?|\|\|)\s*['"`A-Za-z]/.test(line)
            ? [`${path.relative(ROOT, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(defaulted).toEqual([]);
  });
});
