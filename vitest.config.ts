// Two projects: `unit` (no database) and `integration` (*.integration.test.ts: a real PostgreSQL, the embedded
// cluster test/global-setup.ts starts and migrates).
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const shared = {
  resolve: { alias: { '@': path.resolve(import.meta.dirname, 'src') } },
};

export default defineConfig({
  ...shared,
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      {
        ...shared,
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/*.integration.test.ts', '**/node_modules/**'],
          setupFiles: ['test/setup-environment.ts'],
        },
      },
      {
        ...shared,
        test: {
          name: 'integration',
          include: ['src/**/*.integration.test.ts', 'test/**/*.integration.test.ts'],
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/setup-environment.ts', 'test/setup-database.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
