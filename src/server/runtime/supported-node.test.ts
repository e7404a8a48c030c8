// The Node.js check in front of every built entry point (scripts/build.mjs): an older Node stops at once with what
// to do, before any module of the entry loads. The built files are run as a process would be, on this Node with its
// version made to read as an older one (`npm test` builds dist/ first; alone, run `npm run build -- --server`).
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MINIMUM_NODE_MAJOR, unsupportedNodeMessage } from './supported-node';

describe('unsupportedNodeMessage', () => {
  it('accepts the minimum and later, refuses older with the version, the minimum and what to run', () => {
    expect(unsupportedNodeMessage(`${MINIMUM_NODE_MAJOR}.0.0`)).toBeNull();
    expect(unsupportedNodeMessage('24.21.0')).toBeNull();
    expect(unsupportedNodeMessage('26.1.0')).toBeNull();
    const message = unsupportedNodeMessage('20.20.2');
    expect(message).toContain('This is Node.js 20.20.2');
    expect(message).toContain(`Node.js ${MINIMUM_NODE_MAJOR} or later`);
    expect(message).toContain('node_modules/.bin/node');
  });
});

describe('the built entry points on Node.js 20', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'entry-on-node-20-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  /** Node.js reads as 20.20.2 to the code it runs, from before the entry's first module. */
  const asNode20 = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';

  it.each(['dist/start.mjs', 'dist/worker.mjs', 'dist/admin.mjs', 'dist/main.mjs'])(
    '%s stops at once, saying why, having done nothing',
    async (entry) => {
      if (!existsSync(entry))
        throw new Error(`${entry} is missing: run \`npm run build -- --server\` first (npm test does)`);
      const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>(
        (resolve) => {
          execFile(
            process.execPath,
            ['--import', asNode20, entry, 'account', 'create'],
            { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
            (error, out, err) =>
              resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout: out, stderr: err }),
          );
        },
      );
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(unsupportedNodeMessage('20.20.2'));
      expect(stdout).toBe('');
      // Nothing of the entry ran: no database, no secret, no file in its data folder.
      expect(readdirSync(dataDir)).toEqual([]);
    },
  );
});
