// Dashboard security over real HTTP: the session cookie's attributes (and Secure behind HTTPS), cross-site
// mutations refused, the sign-in brute-force limit, the API reference's token, bounded bodies, the pages' headers
// and absolute URLs from the configured origin.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import { baseURL } from '../../playwright.config';
import { sendRaw } from '../../test/http';
import { ensureDatabase } from '../../src/server/db/embedded';
import { serverArgs } from '../../src/server/runtime/server-process';
import { API, bearer, listeningProcessRss, newAccount, signIn } from '../helpers';
import { setEnvironment, startSecondApp } from '../environment';

const HTTPS_PORT = 3215;
const MEMORY_PORT = 3216;
let behindHttps: ChildProcess | undefined;

test.afterAll(() => {
  behindHttps?.kill('SIGTERM');
});

/** next-auth's credentials sign-in with fetch, cookies carried by hand; returns the answer's Set-Cookie lines. */
async function signInRaw(base: string, email: string, password: string) {
  const csrf = await fetch(`${base}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  const response = await fetch(`${base}/api/auth/callback/credentials`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ csrfToken, email, password, json: 'true' }),
  });
  // With json=true next-auth answers { url } (where it would redirect) instead of a redirect.
  const location =
    response.headers.get('location') ?? ((await response.json().catch(() => ({}))) as { url?: string }).url ?? '';
  return { location, cookies: response.headers.getSetCookie() };
}

test('the session cookie is HttpOnly and SameSite=Lax; Secure (with the __Secure- prefix) when the app is served over HTTPS', async () => {
  const { email, password } = await newAccount('pro');
  const plain = await signInRaw(baseURL, email, password);
  const session = plain.cookies.find((line) => line.startsWith('next-auth.session-token='));
  expect(session, plain.cookies.join('\n')).toBeDefined();
  expect(session).toMatch(/; HttpOnly/i);
  expect(session).toMatch(/; SameSite=Lax/i);
  expect(session).not.toMatch(/; Secure/i);

  // The same build behind a TLS-terminating proxy: NEXTAUTH_URL is the public https address.
  setEnvironment({ DATA_DIR: '.data/e2e' });
  const database = await ensureDatabase();
  behindHttps = spawn(process.execPath, serverArgs('start', HTTPS_PORT), {
    stdio: 'ignore',
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      NEXTAUTH_URL: 'https://aso.example.test',
      NEXTAUTH_SECRET: readFileSync('.data/e2e/auth-secret', 'utf8').trim(),
      LOG_REQUESTS: 'false',
    },
  });
  const base = `http://127.0.0.1:${HTTPS_PORT}`;
  await expect
    .poll(async () => (await fetch(`${base}/api/health`).catch(() => null))?.status, { timeout: 60_000 })
    .toBe(200);
  const secure = await signInRaw(base, email, password);
  const secureSession = secure.cookies.find((line) => line.startsWith('__Secure-next-auth.session-token='));
  expect(secureSession, secure.cookies.join('\n')).toBeDefined();
  expect(secureSession).toMatch(/; Secure/i);
  expect(secureSession).toMatch(/; HttpOnly/i);
  expect(secureSession).toMatch(/; SameSite=Lax/i);
});

test('a dashboard mutation posted from another site is refused', async () => {
  const { session } = await newAccount('pro');
  const create = (headers: Record<string, string>) =>
    session.context.post('/api/trpc/apiKeys.create', { data: { name: 'csrf', scope: 'read-write' }, headers });
  expect((await create({ Origin: 'https://evil.example' })).status()).toBe(403);
  expect((await create({ 'Sec-Fetch-Site': 'cross-site' })).status()).toBe(403);
  const list = async () =>
    (await (await session.context.get('/api/trpc/apiKeys.list')).json()).result.data as unknown[];
  expect(await list()).toHaveLength(0);
  expect((await create({ Origin: baseURL, 'Sec-Fetch-Site': 'same-origin' })).status()).toBe(200);
  expect(await list()).toHaveLength(1);
});

test('sign-in is refused after 5 failures for one email, even with the right password', async () => {
  const { email, password } = await newAccount('pro');
  for (let attempt = 0; attempt < 5; attempt++) {
    expect((await signInRaw(baseURL, email, `wrong password ${attempt}`)).location).toContain(
      'error=CredentialsSignin',
    );
  }
  const blocked = await signInRaw(baseURL, email, password);
  expect(blocked.location).toContain('error=TooManySignInAttempts');
  expect(blocked.cookies.some((line) => line.includes('session-token='))).toBe(false);
  // The helpers' sign-in (another email) still works from the same address.
  const other = await newAccount('pro');
  await signIn(other.email, other.password);
});

test('the API reference embeds no dashboard credential: its token calls the public API only, until sign-out', async () => {
  const { session } = await newAccount('pro');
  const html = await (await session.context.get('/docs/api')).text();
  const token = /eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0\.\.[\w-]+\.[\w-]+\.[\w-]+/.exec(html)?.[0];
  expect(token, 'a test-request token in the page').toBeDefined();
  expect(html).not.toContain(session.token);
  expect((await fetch(`${baseURL}${API}/usage`, { headers: bearer(token!) })).status).toBe(200);

  const asCookie = { cookie: `next-auth.session-token=${token}` };
  const createKey = await fetch(`${baseURL}/api/trpc/apiKeys.create`, {
    method: 'POST',
    headers: { ...asCookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'from the page', scope: 'read-write' }),
  });
  expect(createKey.status).toBe(401);
  const renewal = await fetch(`${baseURL}/api/auth/session`, { headers: asCookie });
  expect(await renewal.json()).toEqual({});
  expect(renewal.headers.getSetCookie().some((line) => /session-token=[^;]/.test(line))).toBe(false);

  const { csrfToken } = await (await session.context.get('/api/auth/csrf')).json();
  await session.context.post('/api/auth/signout', { form: { csrfToken, json: 'true' } });
  expect((await fetch(`${baseURL}${API}/usage`, { headers: bearer(token!) })).status).toBe(401);
  expect((await fetch(`${baseURL}${API}/usage`, { headers: bearer(session.token) })).status).toBe(401);
});

/**
 * Sends a body of `size` bytes (declared, or chunked when `declared` is false) and returns the answer's status line.
 * `waitFirst`: like a client sending `Expect: 100-continue`, wait for an early answer before the body (up to 30 s, a
 * bound for a busy machine: a fixed moment was too short for one). A client that sends at once may lose the answer:
 * the server closes a connection whose body it will not read, and a reset discards what the client had not yet read.
 */
function sendLargeBody(
  port: number,
  path: string,
  size: number,
  declared: boolean,
  waitFirst: boolean,
): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const chunk = Buffer.alloc(1 << 20, 'a');
    const framing = declared ? `Content-Length: ${size}` : 'Transfer-Encoding: chunked';
    const pump = () => {
      while (sent < size && answer === '' && !socket.destroyed) {
        sent += chunk.length;
        const more = socket.write(
          declared
            ? chunk
            : Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]),
        );
        if (!more) return void socket.once('drain', pump);
      }
    };
    socket.on('connect', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
      if (waitFirst) {
        const later = setTimeout(pump, 30_000);
        socket.on('close', () => clearTimeout(later));
      } else pump();
    });
    socket.on('data', (data) => {
      answer += String(data);
      socket.destroy();
    });
    // The server may close before the whole body is sent: that is the point.
    socket.on('error', () => {});
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
  });
}

test('twenty concurrent 50 MB bodies to the dashboard and sign-in endpoints leave the server’s memory as it was', async ({
  playwright,
}) => {
  // A web process of its own: the e2e server's memory moves with whatever the other tests send it meanwhile.
  const own = await startSecondApp(MEMORY_PORT, playwright.request);
  try {
    const targets = [
      '/api/trpc/apiKeys.create',
      '/api/auth/callback/credentials',
      '/api/auth/csrf',
      '/api/trpc/account.signUp',
      '/sign-in',
    ];
    // Each target served once with a small request first, so that what the process loads on first use is not counted.
    for (const target of targets)
      expect((await own.request.post(target, { data: {}, maxRedirects: 0 })).status()).toBeLessThan(500);
    const before = listeningProcessRss(MEMORY_PORT);
    const sends = Array.from({ length: 20 }, (_, index) => ({
      target: targets[index % targets.length]!,
      declared: index % 4 !== 3,
      waitFirst: index % 2 === 0,
    }));
    const answers = await Promise.all(
      sends.map(({ target, declared, waitFirst }) => sendLargeBody(MEMORY_PORT, target, 50 << 20, declared, waitFirst)),
    );
    const after = listeningProcessRss(MEMORY_PORT);
    const report = sends
      .map(
        (send, index) =>
          `${send.target} ${send.declared ? 'declared' : 'chunked'} ${send.waitFirst ? 'waits' : 'sends'}: ${answers[index]}`,
      )
      .join('\n');
    // Refused before the body: 413 for a declared length, 411 for chunked; one that sends at once reads its answer too,
    // the rest of its body read and thrown away (src/server/core/unread-body.ts), not reset under it.
    sends.forEach((send, index) => {
      expect(answers[index], report).toBe(
        send.declared ? 'HTTP/1.1 413 Payload Too Large' : 'HTTP/1.1 411 Length Required',
      );
    });
    // The twenty bodies are 1,000 MB: a server that held even three of them at once would grow past the bound. The
    // half that send at once pass through whole (up to DRAIN_MAX_BYTES each is read and thrown away), and the process
    // frees their chunks at V8's next collection, which it starts once tens of MB of them wait: a bound of 40 MB
    // failed at 42 on a busy machine, with every body refused as it should be.
    expect(after - before, `${Math.round(before / 2 ** 20)} MB -> ${Math.round(after / 2 ** 20)} MB`).toBeLessThan(
      128 << 20,
    );
  } finally {
    await own.request.dispose();
    own.process.kill('SIGTERM');
  }
});

// Issue 18 §8: pages sent none of these, and /docs built its examples from the request's Host header.
test('pages forbid sniffing and framing and keep full URLs to this site; absolute URLs never come from Host', async () => {
  for (const path of ['/', '/sign-in', '/docs', '/docs/api', '/docs/webhooks', '/apps']) {
    const response = await fetch(`${baseURL}${path}`, { redirect: 'manual' });
    const headers = response.headers;
    expect(headers.get('x-content-type-options'), path).toBe('nosniff');
    expect(headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
    expect(headers.get('x-frame-options'), path).toBe('DENY');
    expect(headers.get('content-security-policy'), path).toContain("frame-ancestors 'none'");
  }
  const spoofed = { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example', 'X-Forwarded-Proto': 'https' };
  for (const path of ['/docs', `${API}/openapi.json`, `${API}/collection.json`, `${API}/apps`]) {
    const answer = await sendRaw('127.0.0.1', new URL(baseURL).port, 'GET', path, spoofed);
    expect(answer.status, path).toBeLessThan(500);
    expect(answer.body, path).not.toContain('evil.example');
    expect(answer.body, path).toContain(baseURL);
  }
});
