// The production image's last stage, reproduced without Docker (no engine runs on these machines): its COPY steps
// from this build into an empty directory, its `npm ci --omit=dev`, its environment and its CMD, on a database of
// its own. What the image holds is then enough to serve: a file the stage forgets to copy fails here, and so does a
// package the server imports that package.json lists among the devDependencies.
//
// The install is the packages `npm ci --omit=dev` installs, where it installs them: npm lists them from the lockfile
// (`npm ls --omit=dev --all`), and they are hard-linked from this clone's node_modules rather than unpacked from npm's
// cache again: the same packages at the same paths, at a small part of the CPU. One difference: files the clone's own
// install scripts added (the embedded PostgreSQL's library links), which the image's --ignore-scripts leaves out and
// serving on a DATABASE_URL never reads.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, linkSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { ensureDatabase, freePort } from '../../src/server/db/embedded';
import { removedByBuild, runtimeStage } from '../../test/dockerfile';
import { setEnvironment } from '../environment';
import { DEMO, signIn } from '../helpers';

/** What `npm ci --omit=dev --ignore-scripts` installs into `directory`, hard-linked from this clone's node_modules. */
function linkProductionPackages(directory: string) {
  const root = process.cwd();
  const listed = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const packages = listed.split('\n').filter((line) => line.startsWith(path.join(root, 'node_modules') + path.sep));
  expect(packages.length).toBeGreaterThan(100);
  for (const from of packages) linkTree(from, path.join(directory, path.relative(root, from)));
}

/** A package's files, hard-linked; its own node_modules left out (npm lists the packages in it that are installed). */
function linkTree(from: string, to: string, packageRoot = true) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (packageRoot && entry.name === 'node_modules') continue;
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) linkTree(source, target, false);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else linkSync(source, target);
  }
}

// Made by the test: Playwright also loads this file to list the tests, where afterAll never runs.
let directory = '';
const database = `image_${randomBytes(6).toString('hex')}`;
let server: ChildProcess | undefined;
let maintenanceUrl: string | undefined;

test.afterAll(async () => {
  if (server?.exitCode === null) {
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  if (maintenanceUrl) {
    const client = new pg.Client({ connectionString: maintenanceUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.end();
  }
  if (directory) rmSync(directory, { recursive: true, force: true });
});

test('what the image’s last stage holds serves the app on a DATABASE_URL', async ({ playwright }) => {
  test.setTimeout(600_000);
  // Under test-results: on the same file system as node_modules, which the install links from.
  directory = test.info().outputPath('image');
  mkdirSync(directory, { recursive: true });
  const environment: Record<string, string> = {};
  let command: string[] | undefined;
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  // This clone's build still has what the image's build stage removes once built.
  const removed = removedByBuild(dockerfile).map((each) => path.resolve(each));
  const kept = (source: string) => {
    const resolved = path.resolve(source);
    return !removed.some((gone) => resolved === gone || resolved.startsWith(gone + path.sep));
  };
  for (const { instruction, argument } of runtimeStage(dockerfile)) {
    if (instruction === 'COPY') {
      const words = argument.split(/\s+/);
      const fromBuild = words[0] === '--from=build';
      const [destination, ...sources] = words.filter((word) => !word.startsWith('--')).reverse();
      for (const source of sources.reverse()) {
        const from = fromBuild ? source.replace(/^\/app\//, '') : source;
        const to = destination!.endsWith('/')
          ? path.join(directory, destination!, path.basename(from))
          : path.join(directory, destination!);
        cpSync(from, to, { recursive: true, filter: fromBuild ? kept : undefined });
      }
    } else if (instruction === 'ENV') {
      for (const [, name, value] of argument.matchAll(/(\w+)=(\S+)/g)) environment[name!] = value!;
    } else if (instruction === 'RUN' && argument.startsWith('npm ci')) {
      expect(argument).toMatch(/^npm ci --omit=dev --ignore-scripts /);
      linkProductionPackages(directory);
      // What the same step removes once installed (the Node.js binary the project brings for development).
      for (const [, paths] of argument.matchAll(/\brm -rf ([^&]+)/g)) {
        for (const each of paths!.trim().split(/\s+/))
          rmSync(path.join(directory, each), { recursive: true, force: true });
      }
    } else if (instruction === 'CMD') {
      command = JSON.parse(argument) as string[];
    }
  }
  expect(command).toEqual(['node', 'dist/start.mjs']);

  // A database of its own on the e2e server's cluster.
  setEnvironment({ DATA_DIR: '.data/e2e' });
  const cluster = await ensureDatabase();
  maintenanceUrl = Object.assign(new URL(cluster.url), { pathname: '/postgres' }).toString();
  const client = new pg.Client({ connectionString: maintenanceUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${database}`);
  await client.end();

  const port = await freePort();
  let output = '';
  expect(environment.NODE_ENV).toBe('production');
  const launcher = spawn(command![0]!, command!.slice(1), {
    cwd: directory,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      ...environment,
      NODE_ENV: 'production',
      DATA_DIR: path.join(directory, '.data'),
      PORT: String(port),
      DATABASE_URL: Object.assign(new URL(cluster.url), { pathname: `/${database}` }).toString(),
      NEXTAUTH_SECRET: randomBytes(32).toString('base64url'),
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      SEED_DEMO: 'true',
      DEMO_PASSWORD: 'image-demo-password',
    },
  });
  server = launcher;
  launcher.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  launcher.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const request = await playwright.request.newContext({ baseURL: `http://127.0.0.1:${port}` });
  // A launcher that stops (a missing file, a failed migration) fails at once, with what it printed.
  await expect
    .poll(
      async () =>
        launcher.exitCode !== null
          ? `exited ${launcher.exitCode}: ${output}`
          : (await request.get('/api/health').catch(() => null))?.status(),
      // A first start migrates a new database and seeds the demo data: over 120 s once, on a machine three times slower
      // than usual.
      { timeout: 300_000 },
    )
    .toBe(200);

  // The migrations were there to apply (the demo data was seeded into their tables and a user signs in), Next.js's
  // build to render a page, the public API its document.
  expect((await request.get('/api/ready')).status()).toBe(200);
  const session = await signIn(DEMO.email, 'image-demo-password', `http://127.0.0.1:${port}`);
  const apps = await session.context.get('/apps');
  expect(apps.status()).toBe(200);
  expect(await apps.text()).toContain('Breathe: Sleep &amp; Meditation');
  await session.context.dispose();
  const signInPage = await request.get('/sign-in');
  expect(signInPage.status()).toBe(200);
  expect(await signInPage.text()).toContain('Sign in');
  expect((await request.get('/api/public/v1/openapi.json')).status()).toBe(200);
  expect((await request.get('/api/public/v1/apps')).status()).toBe(401);
  await request.dispose();
});
