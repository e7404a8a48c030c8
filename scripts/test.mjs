// `npm test`: every test, on a fresh clone, in one command, the console showing results alone.
//  1. The Debian packages the tests use, installed when missing (ensure-packages.mjs).
//  2. At once: the layer check, and the server's build (dist/: the operator CLI's test runs it) followed by Next.js's
//     build (it loads the former). Next.js's build skips its own check of the types: the type check checks the same,
//     once the build has written the route types it reads.
//  3. Vitest (unit and integration tests) with the type check beside it, then Playwright (e2e) on the production
//     build, whether Vitest passed or not (a run shows every failure). Each suite keeps both cores busy on its own;
//     run at once, they took a fifth more of the machine's CPU than one after the other (each slowed the other's waits
//     and polls, which then cost more), and so longer (docs/testing.md).
// Playwright prints its results as they come; Vitest's are printed in one block when it ends. The other steps' output
// goes to test-results/logs/<step>.log and is printed only when they fail. The application's logs go to
// test-results/logs/ too (vitest/ per test file, e2e-server.log), and a failing test says where. Prints each step's
// time and the total; stops after the first of stages 1 and 2 that fails, with its exit code.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';

// `npm test` runs this on the Node.js 24 the project brings (node_modules/.bin comes first on npm's PATH); started by
// hand on an older Node, every process the tests start would run on it too.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(
    `This is Node.js ${process.versions.node}; the tests need 22 or later: run \`npm test\`, which runs the Node.js 24 of node_modules/.bin.`,
  );
  process.exit(1);
}

const LOGS = 'test-results/logs';
const started = performance.now();
const seconds = (since) => `${Math.round((performance.now() - since) / 1000)} s`;

/**
 * Runs a step and resolves with its exit code. Its output: `quiet`, to its log file, printed only if it fails;
 * `block`, to its log file, printed whole when it ends; `live`, to the console as it comes.
 */
function step(name, command, args, { output: shown = 'quiet', env = {} } = {}) {
  const since = performance.now();
  const captured = shown !== 'live';
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      stdio: captured ? ['ignore', 'pipe', 'pipe'] : 'inherit',
      env: { ...process.env, ...env },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 1 : 0);
      if (captured) writeFileSync(`${LOGS}/${name}.log`, output);
      if (shown === 'block' || (shown === 'quiet' && status !== 0)) process.stdout.write(`\n${output}\n`);
      const failure =
        status === 0 ? '' : `: exit code ${status}${captured ? `, its output above and in ${LOGS}/${name}.log` : ''}`;
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

/** Runs every step, one after the other, whatever each exits with; the first non-zero exit code, or 0. */
async function allOf(...steps) {
  const statuses = [];
  for (const next of steps) statuses.push(await next());
  return statuses.find((status) => status !== 0) ?? 0;
}

/** Runs steps at once; the first non-zero exit code, or 0. */
async function atOnce(...steps) {
  return (await Promise.all(steps.map((each) => each()))).find((status) => status !== 0) ?? 0;
}

rmSync('test-results', { recursive: true, force: true });
mkdirSync(LOGS, { recursive: true });
// Node's compile cache for every Node process of the run: the suite starts the same built files and packages dozens of
// times (app servers, launchers, the operator CLI, test workers), and each start compiled them again.
process.env.NODE_COMPILE_CACHE ??= 'node_modules/.cache/node-compile-cache';
// The tools' own entry points, on this Node: npm and npx in between would cost a process of their own each.
const tool = (entry, ...args) => [process.execPath, [entry, ...args]];

const status = await inOrder(
  () => step('packages', process.execPath, ['scripts/ensure-packages.mjs'], { output: 'live' }),
  () =>
    atOnce(
      () =>
        step(
          'layer check',
          ...tool(
            'node_modules/dependency-cruiser/bin/dependency-cruise.mjs',
            'src',
            '--config',
            '.dependency-cruiser.cjs',
          ),
        ),
      () => step('unused code', ...tool('node_modules/knip/bin/knip.js')),
      // Biome's own binary (Rust), not a Node entry point.
      () => step('format check', 'node_modules/.bin/biome', ['format', '.']),
      () =>
        inOrder(
          () => step('server build', process.execPath, ['scripts/build.mjs', '--server']),
          () =>
            step('next build', process.execPath, ['node_modules/next/dist/bin/next', 'build'], {
              env: { BUILD_SKIP_TYPECHECK: '1' },
            }),
        ),
    ),
  () =>
    allOf(
      () =>
        atOnce(
          () => step('vitest', ...tool('node_modules/vitest/vitest.mjs', 'run'), { output: 'block' }),
          () => step('typecheck', ...tool('node_modules/typescript-native/bin/tsc', '--noEmit')),
        ),
      () => step('playwright', ...tool('node_modules/@playwright/test/cli.js', 'test'), { output: 'live' }),
    ),
);
console.log(`npm test ${status === 0 ? 'passed' : 'failed'} in ${seconds(started)}.`);
process.exit(status);
