// What `npm start` runs (issue 19): compiled JavaScript under plain `node`, no TypeScript loader; and one copy of the
// server's modules per process: the app's server (dist/main.mjs) and the Next.js app (through dist/server/index.mjs)
// import the same built module that owns the database pool.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';

function commandLines(): string[][] {
  const lines: string[][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      lines.push(readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').filter(Boolean));
    } catch {
      // gone meanwhile
    }
  }
  return lines;
}

test('the launcher and the app server run built files with node, and no TypeScript loader', () => {
  const app = commandLines().filter((args) => args.some((arg) => arg === 'dist/start.mjs' || arg === 'dist/main.mjs'));
  expect(app.map((args) => args.find((arg) => arg.startsWith('dist/')))).toEqual(
    expect.arrayContaining(['dist/start.mjs', 'dist/main.mjs']),
  );
  for (const args of app) {
    expect(path.basename(args[0]!), args.join(' ')).toBe('node');
    expect(args.join(' '), 'a TypeScript loader').not.toMatch(/tsx|ts-node|\.ts\b/);
  }
});

/**
 * An entry's own code: the file itself, or, for an entry that checks the Node.js version first (scripts/build.mjs),
 * the chunk it then imports.
 */
function entryCode(file: string): string {
  const text = readFileSync(file, 'utf8');
  const imported = /await import\("\.\/(chunks\/[^"]+)"\)/.exec(text)?.[1];
  return imported ? readFileSync(path.join(path.dirname(file), imported), 'utf8') : text;
}

test('the app server and the Next.js app import one built module for the database pool', () => {
  const files = readdirSync('dist', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.mjs'));
  const owners = files.filter((file) =>
    readFileSync(path.join('dist', file), 'utf8').includes('DATABASE_URL is not set'),
  );
  expect(owners).toHaveLength(1);
  const chunk = path.basename(owners[0]!);
  for (const entry of ['dist/main.mjs', 'dist/server/index.mjs'])
    expect(entryCode(entry), entry).toMatch(new RegExp(`/(chunks/)?${chunk.replaceAll('.', '\\.')}"`));
});
