// Prism's conformance sweep (@stoplight/prism-cli, an implementation of OpenAPI that is not ours): for each dated
// version, Prism proxies to the e2e server with that version's document (`GET /openapi.json?version=`) and checks every
// request and answer against it, saying what differs in its `sl-violations` header. Every read of the API, for a demo
// app of each store and for the settings, is sent through it with `Aso-Version` naming the version, and none may differ.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import {
  admin,
  API,
  bearer,
  createKey,
  DEMO,
  DEMO_APP_ID,
  DEMO_PLAY_APP_ID,
  newAccount,
  replyDraftOf,
  signIn,
  trpc,
} from '../helpers';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Prism's proxy to the e2e server's API, checking against `documentFile`; resolves once it listens. */
async function prismProxy(documentFile: string): Promise<{ origin: string; stop: () => void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    path.resolve('node_modules/.bin/prism'),
    ['proxy', documentFile, `${baseURL}${API}`, '--host', '127.0.0.1', '--port', String(port)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Prism did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Prism is listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited (${code}):\n${output}`));
    });
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

test('every read, through Prism with each dated version’s document, conforms to it', async ({ request }) => {
  test.setTimeout(180_000);
  const newest = await (await request.get(`${API}/openapi.json`)).json();
  const versions = (newest['x-api-versions'] as { version: string }[]).map((entry) => entry.version);
  const demo = await signIn(DEMO.email, DEMO.password);
  const apiKey = await createKey(demo, 'read-only', 'prism');
  // The settings of an account of the test's own: one webhook endpoint with one delivery, one key.
  const { session, email } = await newAccount('pro');
  const { key } = await trpc<{ key: { id: string } }>(session, 'apiKeys.create', {
    name: 'prism settings',
    scope: 'read-only',
  });
  const { endpoint } = await trpc<{ endpoint: { id: string } }>(session, 'webhooks.create', {
    url: 'http://127.0.0.1:9/prism',
  });
  // An export of that account, for the exports' reads.
  await admin('app', 'add', '--email', email, '--url', 'https://apps.apple.com/us/app/focus-timer/id1500000001');
  const exporter = await createKey(session, 'read-only', 'prism exports');
  const asked = await request.post(`${API}/exports`, {
    headers: bearer(exporter),
    data: { datasets: ['ratings'], from: '2026-06-01', to: '2026-06-30', format: 'jsonl' },
  });
  expect(asked.status()).toBe(202);
  const exportId = ((await asked.json()) as { id: string }).id;
  const reads: { path: string; authorization: string }[] = [
    { path: '/exports', authorization: `Bearer ${exporter}` },
    { path: `/exports/${exportId}`, authorization: `Bearer ${exporter}` },
  ];
  // A reply drafted to each demo app's review (the demo apps are owned through simulated store accounts).
  const writer = await createKey(demo, 'read-write', 'prism replies');
  const drafts: Record<string, string> = {};
  for (const appId of [DEMO_APP_ID, DEMO_PLAY_APP_ID])
    drafts[appId] = (await replyDraftOf(request, writer, appId, 5)).draftId;
  for (const appId of [DEMO_APP_ID, DEMO_PLAY_APP_ID]) {
    const keywords: { keywordId: string }[] = await (
      await request.get(`${API}/apps/${appId}/keywords`, { headers: bearer(apiKey) })
    ).json();
    const keywordId = keywords[0]!.keywordId;
    for (const template of Object.keys(newest.paths)) {
      if (!newest.paths[template].get || !template.startsWith('/apps/{id}')) continue;
      const query = template === '/apps/{id}/keywords/research' ? '?term=sleep' : '';
      const filled = template
        .replace('{id}', appId)
        .replace('{keywordId}', keywordId)
        .replace('{draftId}', drafts[appId]!);
      reads.push({ path: `${filled}${query}`, authorization: `Bearer ${apiKey}` });
    }
  }
  reads.push(
    { path: '/apps', authorization: `Bearer ${apiKey}` },
    { path: `/apps/${DEMO_APP_ID}/keywords?page=1&pageSize=2&rankWindow=30d`, authorization: `Bearer ${apiKey}` },
    { path: `/apps/${DEMO_APP_ID}/reviews?page=2&pageSize=5`, authorization: `Bearer ${apiKey}` },
    { path: `/apps/${DEMO_APP_ID}/reviews?source=store_account`, authorization: `Bearer ${apiKey}` },
    { path: `/apps/${DEMO_PLAY_APP_ID}/reviews?source=store_account`, authorization: `Bearer ${apiKey}` },
    { path: '/usage', authorization: `Bearer ${apiKey}` },
    { path: '/search?query=sleep', authorization: `Bearer ${apiKey}` },
    { path: `/search/app:${DEMO_APP_ID}`, authorization: `Bearer ${apiKey}` },
    ...['/keys', `/keys/${key.id}`, '/webhook-endpoints', `/webhook-endpoints/${endpoint.id}`].map((path) => ({
      path,
      authorization: `Bearer ${session.token}`,
    })),
    { path: `/webhook-endpoints/${endpoint.id}/deliveries`, authorization: `Bearer ${session.token}` },
  );
  // Every read the document has is swept.
  const swept = new Set(
    reads.map((read) => read.path.split('?')[0]!.replace(/(?:app:|keyword:)?[0-9a-f-]{36}/g, '{}')),
  );
  for (const template of Object.keys(newest.paths).filter((template) => newest.paths[template].get))
    expect(swept, template).toContain(template.replace(/\{\w+\}/g, '{}'));

  const folder = mkdtempSync(path.join(tmpdir(), 'prism-'));
  try {
    for (const version of versions) {
      const file = path.join(folder, `openapi-${version}.json`);
      writeFileSync(file, await (await request.get(`${API}/openapi.json?version=${version}`)).text());
      const prism = await prismProxy(file);
      try {
        for (const read of reads) {
          const answer = await request.get(`${prism.origin}${read.path}`, {
            headers: { Authorization: read.authorization, 'Aso-Version': version },
          });
          const label = `${version} GET ${read.path}`;
          expect(answer.status(), label).toBe(200);
          expect(answer.headers()['aso-version'], label).toBe(version);
          expect(JSON.parse(answer.headers()['sl-violations'] ?? '[]'), label).toEqual([]);
        }
      } finally {
        prism.stop();
      }
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
