// The configuration module is the only reader of the environment, and README's "Configuration" table is its list.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseEnvironment, VARIABLES } from './config';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function sourceFiles(directory: string): string[] {
  return readdirSync(path.join(ROOT, directory), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

describe('the configuration', () => {
  it('is read from the environment by src/server/core/config.ts alone', () => {
    const shipped = [
      ...sourceFiles('src/server'),
      ...sourceFiles('src/app'),
      ...sourceFiles('src/components'),
      'scripts/start.ts',
      'scripts/worker.ts',
      'scripts/admin.ts',
    ];
    const readers = shipped.filter(
      (file) =>
        file !== 'src/server/core/config.ts' && /process\.env\b/.test(readFileSync(path.join(ROOT, file), 'utf8')),
    );
    expect(readers).toEqual([]);
  });

  it('is the table of README "Configuration", variable by variable, with the same defaults', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'));
    const rows = [...section.matchAll(/^\| `([A-Z0-9_]+)` \| (.+?) \| .+ \|$/gm)].map(([, name, fallback]) => [
      name,
      fallback,
    ]);
    expect(rows).toEqual(Object.entries(VARIABLES).map(([name, variable]) => [name, variable.default]));
  });

  it('gives every default, and refuses a bad value by name', () => {
    const defaults = parseEnvironment({});
    expect(defaults).toMatchObject({
      PORT: 3000,
      DATA_DIR: '.data',
      LOG_REQUESTS: true,
      RESPONSE_CACHE_MB: 64,
      SCHEDULER: true,
      DATA_PROVIDER: undefined,
      WEBHOOK_SLACK_HOSTS: [],
    });
    expect(defaults.DATABASE_URL).toBeUndefined();
    expect(
      parseEnvironment({
        PORT: ' 8080 ',
        TRUSTED_PROXIES: '10.0.0.0/8, ::1',
        RESPONSE_CACHE_MB: '0',
        LOG_REQUESTS: '',
      }),
    ).toMatchObject({ PORT: 8080, TRUSTED_PROXIES: ['10.0.0.0/8', '::1'], RESPONSE_CACHE_MB: 0, LOG_REQUESTS: true });
    expect(() => parseEnvironment({ PORT: '80a', SCHEDULER: 'no', DATA_PROVIDER: 'playstore' })).toThrow(
      /PORT="80a": Must be a whole number\.[\s\S]*DATA_PROVIDER="playstore"[\s\S]*SCHEDULER="no": Must be true or false\./,
    );
  });
});
