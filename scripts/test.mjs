// `npm test`: every test, on a fresh clone, in one command, the console showing results alone.
//  1. The Debian packages the tests use, installed when missing (ensure-packages.mjs).
//  2. The layer check, and the server's build (dist/: the operator CLI's test runs it).
//  3. At once: Vitest (unit and integration tests), and Next.js's build (it skips its own check of the types: the type
//     check below checks the same, once the build has written the route types it reads).
//  4. At once: Playwright (e2e) on the production build, and the type check.
// Vitest and Playwright print their results; the other steps' output goes to test-results/logs/<step>.log and is
// printed only when they fail. The application's logs go to test-results/logs/ too (vitest/ per test file,
// e2e-server.log), and a failing test says where. Prints each step's time and the total; stops after the first stage
// that fails, with its exit code.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

const LOGS = 'test-results/logs';
const started = performance.now();
const seconds = (since) => `${Math.round((performance.now() - since) / 1000)} s`;

/** Runs a step; `quiet`: its output to its log file, printed only if it fails. Resolves with its exit code. */
function step(name, command, args, { quiet = true, env = {} } = {}) {
  const since = performance.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (quiet) writeFileSync(`${LOGS}/${name}.log`, output);
      if (status !== 0 && quiet) process.stdout.write(`\n${output}\n`);
      const failure = status === 0 ? '' : `: exit code ${status}${quiet ? `, its output above and in ${LOGS}/${name}.log` : ''}`;
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
  () => step('packages', process.execPath, ['scripts/ensure-packages.mjs'], { quiet: false }),
  () => atOnce(() => step('layer check', 'npm', ['run', '--silent', 'lint:deps']), () => step('server build', process.execPath, ['scripts/build.mjs', '--server'])),
  () =>
    atOnce(
      () => step('vitest', 'npx', ['vitest', 'run'], { quiet: false }),
      () => step('next build', process.execPath, ['node_modules/next/dist/bin/next', 'build'], { env: { BUILD_SKIP_TYPECHECK: '1' } }),
    ),
  () =>
    atOnce(
      () => step('playwright', 'npx', ['playwright', 'test'], { quiet: false }),
      () => step('typecheck', 'npm', ['run', '--silent', 'typecheck']),
    ),
);
console.log(`npm test ${status === 0 ? 'passed' : 'failed'} in ${seconds(started)}.`);
process.exit(status);
