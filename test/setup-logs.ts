// The application's log lines (pino writes them to stdout and stderr) go to a file per test file, kept with the test
// results, so that the console shows the results alone; a failing test says where its file's log is. Tests that read
// the log lines spy on process.stdout.write or process.stderr.write as before: their spies sit over this one.
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, expect, onTestFailed } from 'vitest';

export const TEST_LOG_DIRECTORY = 'test-results/logs/vitest';

function logFile(): string {
  const testPath = expect.getState().testPath ?? `process-${process.pid}`;
  return path.join(TEST_LOG_DIRECTORY, `${path.relative(process.cwd(), testPath).replaceAll(path.sep, '__')}.log`);
}

const redirected = Symbol.for('aso.test-logs-redirected');
const processState = process as unknown as Record<symbol, boolean>;
if (!processState[redirected]) {
  processState[redirected] = true;
  mkdirSync(TEST_LOG_DIRECTORY, { recursive: true });
  const toFile = (chunk: string | Uint8Array, encodingOrCallback?: unknown, callback?: unknown): boolean => {
    appendFileSync(logFile(), chunk);
    const done = typeof encodingOrCallback === 'function' ? encodingOrCallback : callback;
    if (typeof done === 'function') done();
    return true;
  };
  process.stdout.write = toFile as typeof process.stdout.write;
  process.stderr.write = toFile as typeof process.stderr.write;
}

beforeEach(() => {
  onTestFailed(() => {
    console.error(`The application's log of this test file: ${logFile()}`);
  });
});
