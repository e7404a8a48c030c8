// `npm test`: every test, on a fresh clone, in one command, the console showing results alone.
//  1. The Debian packages the tests use, installed when missing (ensure-packages.mjs).
//  2. The layer check, and the server's build (dist/: the operator CLI's test runs it).
//  3. At once: Vitest (unit and integration tests), and Next.js's build followed by Playwright (e2e) on it beside the
//     type check. The build skips its own check of the types: the type check checks the same, once the build has
//     written the route types it reads. The build and Playwright are the critical path; Playwright's tests mostly
//     wait (on processes they start, on a database coming back, on a browser). So Vitest and the type check run
//     beside them at a lower priority, on the cores they leave idle, rather than before or after them.
// Playwright prints its results as they come; Vitest's are printed in one block when it ends, so that the two never
// interleave. The other steps' output goes to test-results/logs/<step>.log and is printed only when they fail. The
// application's logs go to test-results/logs/ too (vitest/ per test file, e2e-server.log), and a failing test says
// where. Prints each step's time and the total; stops after the first stage
// that fails, with its exit code.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const LOGS = 'test-results/logs';
const started = performance.now();
const seconds = (since) => `${Math.round((performance.now() - since) / 1000)} s`;

/**
 * Runs a step and resolves with its exit code. Its output: `quiet`, to its log file, printed only if it fails;
 * `block`, to its log file, printed whole when it ends; `live`, to the console as it comes. `yielding`: it and every
 * process it starts run at a lower priority (nice 10), taking the cores the steps on the critical path leave idle.
 */
function step(name, command, args, { output: shown = 'quiet', env = {}, yielding = false } = {}) {
  const since = performance.now();
  const captured = shown !== 'live';
  if (yielding) [command, args] = ['nice', ['-n', '10', command, ...args]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (captured) writeFileSync(`${LOGS}/${name}.log`, output);
      if (shown === 'block' || (shown === 'quiet' && status !== 0)) process.stdout.write(`\n${output}\n`);
      const failure = status === 0 ? '' : `: exit code ${status}${captured ? `, its output above and in ${LOGS}/${name}.log` : ''}`;
      console.log(`${status === 0 ? '✓' : '✗'} ${name} (${seconds(since)})${failure}`);
      resolve(status);
    });
  });
}

/** Runs steps one after the other, up to the first that fails. */
async function inOrder(...steps) {
  for (const next of steps) {
    const status = await next();
    if (status !== 0) return status;
  }
  return 0;
}

/** Runs steps at once; the first non-zero exit code, or 0. */
async function atOnce(...steps) {
  return (await Promise.all(steps.map((each) => each()))).find((status) => status !== 0) ?? 0;
}

rmSync('test-results', { recursive: true, force: true });
mkdirSync(LOGS, { recursive: true });

const status = await inOrder(
  () => step('packages', process.execPath, ['scripts/ensure-packages.mjs'], { output: 'live' }),
  () => atOnce(() => step('layer check', 'npm', ['run', '--silent', 'lint:deps']), () => step('server build', process.execPath, ['scripts/build.mjs', '--server'])),
  () =>
    atOnce(
      () => step('vitest', 'npx', ['vitest', 'run'], { output: 'block', yielding: true }),
      () =>
        inOrder(
          () => step('next build', process.execPath, ['node_modules/next/dist/bin/next', 'build'], { env: { BUILD_SKIP_TYPECHECK: '1' } }),
          () =>
            atOnce(
              () => step('playwright', 'npx', ['playwright', 'test'], { output: 'live' }),
              () => step('typecheck', 'npm', ['run', '--silent', 'typecheck'], { yielding: true }),
            ),
        ),
    ),
);
console.log(`npm test ${status === 0 ? 'passed' : 'failed'} in ${seconds(started)}.`);
process.exit(status);
