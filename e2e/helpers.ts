// Real accounts, sessions and keys over HTTP, the way a user gets them.
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import {
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { baseURL } from '../playwright.config';

export const API = '/api/public/v1';
export const DEMO = { email: 'demo@example.com', password: 'e2e-demo-password' };
export const OTHER = { email: 'other@example.com', password: 'e2e-demo-password' };
/** Seeded ids (src/server/services/seed/demo.ts). */
export const DEMO_APP_ID = '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11';
export const DEMO_PLAY_APP_ID = '1e7d3a8b-5c2f-4f9b-8a4d-7b6c5d4e3f22';
export const OTHER_APP_ID = '3a9f5c0d-7e4b-4b1d-8c6f-9d8e7f6a5b44';

export interface Session {
  context: APIRequestContext;
  /** The next-auth session token (JWT) of the signed-in user. */
  token: string;
}

/** Signs in on the e2e server, or on the app at `origin` (a deployment of its own, e2e/external). */
export async function signIn(email: string, password: string, origin = baseURL): Promise<Session> {
  const context = await playwrightRequest.newContext({ baseURL: origin });
  const { csrfToken } = await (await context.get('/api/auth/csrf')).json();
  const response = await context.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password, json: 'true' },
  });
  expect(response.ok()).toBe(true);
  const cookie = (await context.storageState()).cookies.find((c) => c.name.endsWith('next-auth.session-token'));
  if (!cookie) throw new Error(`sign-in of ${email} failed`);
  return { context, token: cookie.value };
}

export async function trpc<T = unknown>(
  session: Session | APIRequestContext,
  path: string,
  input?: unknown,
): Promise<T> {
  const context = 'context' in session ? session.context : session;
  const response = await context.post(`/api/trpc/${path}`, { data: input ?? {} });
  const body = await response.json();
  if (!response.ok()) throw new Error(`${path} failed: ${JSON.stringify(body)}`);
  return body.result.data as T;
}

export async function trpcQuery<T = unknown>(session: Session, path: string): Promise<T> {
  const response = await session.context.get(`/api/trpc/${path}`);
  const body = await response.json();
  if (!response.ok()) throw new Error(`${path} failed: ${JSON.stringify(body)}`);
  return body.result.data as T;
}

export async function createKey(
  session: Session,
  scope: 'read-only' | 'read-write',
  name = `e2e ${scope}`,
): Promise<string> {
  const { secret } = await trpc<{ secret: string }>(session, 'apiKeys.create', { name, scope });
  return secret;
}

/** Where the tests' accounts are made: the e2e server (its embedded cluster), or a deployment of its own. */
export interface Target {
  origin: string;
  /** The operator CLI's environment: how it finds the database. */
  adminEnvironment: Record<string, string | undefined>;
}

const E2E_SERVER: Target = { origin: baseURL, adminEnvironment: { DATA_DIR: '.data/e2e', DATABASE_URL: undefined } };

type AdminAnswer = { exitCode: 0; output: string[] } | { exitCode: 1; error: string };

function parseAnswer(line: string): AdminAnswer | undefined {
  try {
    const answer = JSON.parse(line) as AdminAnswer;
    return typeof answer === 'object' && answer !== null && 'exitCode' in answer ? answer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The operator CLI's `batch` on one target's database, for this test worker's life: one process for all of its
 * commands, where a process per command cost the machine more than the commands did. It answers in order; the
 * process ends when the worker does (its stdin closes).
 */
class AdminBatch {
  private readonly waiting: { command: string; resolve: (output: string[]) => void; reject: (error: Error) => void }[] =
    [];
  private readonly process;
  /** The end of what it printed besides its answers, for a failure's message. */
  private printed = '';

  constructor(environment: NodeJS.ProcessEnv, onExit: () => void) {
    this.process = spawn(process.execPath, ['dist/admin.mjs', 'batch'], {
      env: environment,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.process.stderr.on('data', (chunk: Buffer) => (this.printed = (this.printed + chunk.toString()).slice(-4_000)));
    createInterface({ input: this.process.stdout }).on('line', (line) => {
      const answer = parseAnswer(line);
      // The CLI keeps its stdout for answers, but a library may print there.
      if (!answer) return void (this.printed = `${this.printed}${line}\n`.slice(-4_000));
      const next = this.waiting.shift()!;
      if (answer.exitCode === 0) next.resolve(answer.output);
      else next.reject(new Error(`admin ${next.command}: ${answer.error}`));
    });
    this.process.on('exit', (code) => {
      onExit();
      for (const next of this.waiting.splice(0))
        next.reject(new Error(`admin ${next.command}: the CLI exited with ${code}: ${this.printed}`));
    });
    // Neither keeps the worker alive.
    this.process.unref();
    for (const stream of [this.process.stdin, this.process.stdout, this.process.stderr])
      (stream as unknown as { unref(): void }).unref();
  }

  run(args: string[]): Promise<string[]> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ command: args.join(' '), resolve, reject });
      this.process.stdin.write(`${JSON.stringify(args)}\n`);
    });
  }
}

const batches = new Map<string, AdminBatch>();

/** The operator CLI on the target's database (by default the e2e server's embedded cluster); its last line. */
export async function adminOn(target: Target, ...args: string[]): Promise<string> {
  const key = JSON.stringify(target.adminEnvironment);
  let batch = batches.get(key);
  if (!batch) {
    const environment: NodeJS.ProcessEnv = { ...process.env, ...target.adminEnvironment };
    for (const [name, value] of Object.entries(target.adminEnvironment))
      if (value === undefined) delete environment[name];
    batch = new AdminBatch(environment, () => batches.delete(key));
    batches.set(key, batch);
  }
  return (await batch.run(args)).at(-1)!;
}

export const admin = (...args: string[]) => adminOn(E2E_SERVER, ...args);

/**
 * A new account on the given plan, signed in. Created with the operator CLI: the dashboard's sign-up allows a few an
 * hour per client address, and every test runs from this one (e2e/ui/api-keys.spec.ts signs up through the form).
 */
export async function newAccount(
  plan: 'free' | 'solo' | 'pro' | 'business' | 'agency' | 'enterprise' = 'pro',
  target = E2E_SERVER,
) {
  const email = `e2e-${randomUUID()}@example.test`;
  const password = 'e2e-password-123';
  await adminOn(target, 'account', 'create', '--email', email, '--password', password, '--plan', plan);
  return { email, password, session: await signIn(email, password, target.origin) };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Checks the RFC 9457 shape every error shares, and returns the body. */
export async function expectProblem(
  response: PlainResponse,
  status: number,
  slug: string,
): Promise<Record<string, unknown>> {
  expect(response.status(), await response.text()).toBe(status);
  expect(response.headers()['content-type']).toMatch(/^application\/problem\+json/);
  expect(response.headers()['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const body = await response.json();
  expect(body).toMatchObject({
    type: `${baseURL}/docs/problems/${slug}`,
    status,
    instance: new URL(response.url()).pathname,
  });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  expect(body.requestId).toBe(response.headers()['x-request-id']);
  expect(JSON.stringify(body)).not.toMatch(/svc_live_[0-9A-Za-z]{20}|at .*\.(ts|js):\d+|SELECT |prisma/i);
  return body;
}

/**
 * Signs the page's browser in without the form, as a browser that signed in before is: next-auth's credentials
 * callback, called in the page's own context, sets its session cookie, and no page is loaded. For tests about what
 * comes after signing in; the form itself is e2e/ui/sign-in.spec.ts's (and signInWithForm's, below).
 */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  const { csrfToken } = (await (await page.request.get('/api/auth/csrf')).json()) as { csrfToken: string };
  const response = await page.request.post('/api/auth/callback/credentials', {
    form: { csrfToken, email, password, json: 'true' },
  });
  expect(response.ok(), `sign-in of ${email}`).toBe(true);
  expect(
    (await page.context().cookies()).some((cookie) => cookie.name.endsWith('next-auth.session-token')),
    `sign-in of ${email}`,
  ).toBe(true);
}

/** Signs in through the dashboard's form, in the browser, and lands on Apps. */
export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/apps$/);
}

/** Resident memory, in bytes, of the process listening on `port` on this machine (Linux /proc). */
export function listeningProcessRss(port: number): number {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local address, state 0A (LISTEN), inode
      if (fields[1]?.endsWith(hexPort) && fields[3] === '0A') inodes.add(fields[9]!);
    }
  }
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of descriptors) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode && inodes.has(inode))
        return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
    }
  }
  throw new Error(`no process listens on port ${port}`);
}

/** A webhook receiver on this machine's loopback (the e2e servers accept one): what it got, in order. */
export interface WebhookReceiver {
  /** The URL of `path` on it. */
  url: (path: string) => string;
  /** The requests it answered (200). */
  received: { headers: http.IncomingHttpHeaders; body: string }[];
  /** The requests it held without an answer (`hold`). */
  held: { headers: http.IncomingHttpHeaders; body: string }[];
  close: () => Promise<void>;
}

/** `hold`: the requests to hold open, never answered (a receiver that hangs, or a sender that dies meanwhile). */
export async function startWebhookReceiver(
  options: { hold?: (body: string) => boolean } = {},
): Promise<WebhookReceiver> {
  const received: WebhookReceiver['received'] = [];
  const held: WebhookReceiver['held'] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      if (options.hold?.(body)) return void held.push({ headers: request.headers, body });
      received.push({ headers: request.headers, body });
      response.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    held,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Solo account (1,500 credits) tracking one app, with exactly 100 credits left, spent through the API. */
/** Tracks the app of a store address for the account of `email`, with the operator CLI; the app's id. */
export const addAppFor = (email: string, url: string) => admin('app', 'add', '--email', email, '--url', url);

export async function accountWithHundredCreditsLeft(request: ApiCaller) {
  const { session, email } = await newAccount('solo');
  const appId = await addAppFor(email, 'https://apps.apple.com/us/app/focus-timer/id1500000001');
  const key = await createKey(session, 'read-write', 'credits');
  for (let batch = 0; batch < 7; batch++) {
    const responses = await Promise.all(
      Array.from({ length: 25 }, () =>
        request.get(`${API}/apps/${appId}/keywords/research?term=focus`, { headers: bearer(key) }),
      ),
    );
    for (const response of responses) expect(response.status()).toBe(200);
  }
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ limit: 1500, used: 1400, remaining: 100 });
  return { appId, key };
}

export async function expectExactlyHundredCharged(request: ApiCaller, key: string, statuses: number[]) {
  expect(statuses.filter((status) => status === 200)).toHaveLength(100);
  expect(statuses.filter((status) => status === 402)).toHaveLength(200);
  const usage = await (await request.get(`${API}/usage`, { headers: bearer(key) })).json();
  expect(usage).toMatchObject({ used: 1500, remaining: 0 });
  const ledgerCredits = usage.byEndpoint.reduce((sum: number, row: { credits: number }) => sum + row.credits, 0);
  expect(ledgerCredits).toBe(usage.used);
  expect(usage.byEndpoint).toEqual(
    expect.arrayContaining([
      { endpoint: 'GET /apps/{id}/keywords/research', calls: 175, credits: 1400 },
      { endpoint: 'GET /apps/{id}', calls: 100, credits: 100 },
    ]),
  );
}

/** What a test reads of an answer: Playwright's APIResponse has these, and so has PlainClient's. */
export interface PlainResponse {
  status(): number;
  ok(): boolean;
  url(): string;
  headers(): Record<string, string>;
  text(): Promise<string>;
  json(): Promise<any>;
  dispose(): Promise<void>;
}

type PlainOptions = { headers?: Record<string, string>; data?: unknown };

/** The calls a test makes of an app: Playwright's APIRequestContext, or a PlainClient. */
export interface ApiCaller {
  get(path: string, options?: PlainOptions): Promise<PlainResponse>;
  post(path: string, options?: PlainOptions): Promise<PlainResponse>;
}

/**
 * The app at `origin` called with Node's own fetch, answering as Playwright's request context does (`status()`,
 * `headers()`, `json()`): for the tests that send calls by the hundred (credits, rates, recovery under load, the
 * deployments' chains). Playwright's context records each call as a step of the test, with its stack, and that cost
 * the test worker several times what the call itself did. A refused connection throws, as it does there.
 */
export class PlainClient implements ApiCaller {
  constructor(readonly origin: string) {}

  get(path: string, options: PlainOptions = {}): Promise<PlainResponse> {
    return this.send('GET', path, options);
  }

  post(path: string, options: PlainOptions = {}): Promise<PlainResponse> {
    return this.send('POST', path, options);
  }

  private async send(method: string, path: string, { headers = {}, data }: PlainOptions): Promise<PlainResponse> {
    const body = data === undefined ? undefined : JSON.stringify(data);
    const response = await fetch(new URL(path, this.origin), {
      method,
      headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body,
    });
    const text = await response.text();
    const answered = Object.fromEntries(response.headers);
    return {
      status: () => response.status,
      ok: () => response.ok,
      url: () => response.url,
      headers: () => answered,
      text: async () => text,
      json: async () => JSON.parse(text),
      dispose: async () => {},
    };
  }
}

/** A call's answer, when it was sent and answered (epoch ms), and which context sent it. */
export interface TimedAnswer {
  status: number;
  retryAfter: number | null;
  context: number;
  sentAt: number;
  answeredAt: number;
}

/**
 * Free calls (`GET /usage`) with one key, in bursts of 100 spread over `contexts` in turn (the first call to the first,
 * the next to the second…), until 300 have been refused (at most 30 bursts): past a Solo key's 600 a minute, however
 * long the calls take on this machine. The answers, in order.
 */
export async function burstsOfFreeCalls(contexts: readonly ApiCaller[], key: string): Promise<TimedAnswer[]> {
  const answers: TimedAnswer[] = [];
  for (let burst = 0; burst < 30 && answers.filter((answer) => answer.status === 429).length < 300; burst++) {
    const timed = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        const sentAt = Date.now();
        const response = await contexts[index % contexts.length]!.get(`${API}/usage`, { headers: bearer(key) });
        return { response, sentAt, answeredAt: Date.now(), context: index % contexts.length };
      }),
    );
    for (const { response, sentAt, answeredAt, context } of timed) {
      const retryAfter = response.headers()['retry-after'];
      answers.push({
        status: response.status(),
        retryAfter: retryAfter === undefined ? null : Number(retryAfter),
        context,
        sentAt,
        answeredAt,
      });
    }
  }
  return answers;
}

/**
 * What the answers tell of the rate window of the first refusal among them, whatever the machine's speed: a refusal's
 * Retry-After is the window's remaining time rounded up to a second, so the window ended within a second of it, and
 * began a window's length before (a process's view of a window may end up to a second later than the shared count's:
 * the lease's answer took that long to reach it, on a busy machine). `surelyCounted`: the calls let through that were sent and answered inside it (all
 * of them counted in it); `atMostCounted`: those that overlapped it at all (no more can have been counted in it).
 * A window that refused a call let through at least the limit less the leases in flight, and never more than the limit.
 */
export function refusingWindow(
  answers: TimedAnswer[],
  windowMs = 60_000,
): { surelyCounted: number; atMostCounted: number } {
  const refusal = answers
    .filter((answer) => answer.status === 429 && answer.retryAfter !== null)
    .sort((a, b) => a.sentAt - b.sentAt)[0];
  if (!refusal) throw new Error('no call was refused: the window was never full');
  const endsAfter = refusal.sentAt + (refusal.retryAfter! - 2) * 1000;
  const endsBy = refusal.answeredAt + refusal.retryAfter! * 1000;
  const allowed = answers.filter((answer) => answer.status === 200);
  return {
    surelyCounted: allowed.filter((answer) => answer.sentAt >= endsBy - windowMs && answer.answeredAt <= endsAfter)
      .length,
    atMostCounted: allowed.filter((answer) => answer.answeredAt >= endsAfter - windowMs && answer.sentAt <= endsBy)
      .length,
  };
}

/** Opens Settings → API access's create dialog (on the page already shown) and returns its form. */
export async function openCreateKeyForm(page: Page) {
  await page.getByRole('button', { name: 'New key' }).click();
  return page.getByRole('form', { name: 'Create key' });
}

/** Chooses a row's action from its menu ("Actions for <label>"). */
export async function chooseRowAction(scope: Page | Locator, label: string, action: string): Promise<void> {
  await scope.getByRole('button', { name: `Actions for ${label}`, exact: true }).click();
  const page = 'page' in scope ? scope.page() : scope;
  await page.getByRole('menuitem', { name: action, exact: true }).click();
}

/** Opens Settings → Webhooks' add dialog (on the page already shown) and returns its form. */
export async function openEndpointForm(page: Page) {
  await page.getByRole('button', { name: 'New endpoint' }).click();
  return page.getByRole('form', { name: 'Add endpoint' });
}

/**
 * A reply drafted, with `key`, to a review of `appId` read with its store account (the `index`th, newest first): for
 * the tests that call every operation, whose replies need an app a store account owns (the demo apps, a sandbox's
 * sample apps). Tests that run at once on the demo apps each take reviews of their own: a newer draft of a review
 * replaces one still waiting (the Postman collection's run takes the two newest).
 */
export async function replyDraftOf(
  request: APIRequestContext,
  key: string,
  appId: string,
  index = 0,
): Promise<{ reviewId: string; draftId: string }> {
  const reviews = await request.get(`${API}/apps/${appId}/reviews?source=store_account&pageSize=1&page=${index + 1}`, {
    headers: bearer(key),
  });
  expect(reviews.status()).toBe(200);
  const reviewId = ((await reviews.json()) as { items: { id: string }[] }).items[0]!.id;
  const drafted = await request.post(`${API}/apps/${appId}/reviews/${reviewId}/reply-drafts`, {
    headers: bearer(key),
    data: { body: 'Thank you for the review!' },
  });
  expect(drafted.status()).toBe(200);
  return { reviewId, draftId: ((await drafted.json()) as { id: string }).id };
}

/** A test key of a new account's sandbox (made over REST by its session in test mode), and a sample app's id. */
export async function sandboxKey(request: APIRequestContext): Promise<{ key: string; appId: string }> {
  const { session } = await newAccount('pro');
  const made = await request.post(`${API}/keys`, {
    headers: { ...bearer(session.token), 'X-Test-Mode': 'true' },
    data: { name: 'sandbox', scope: 'read-write' },
  });
  expect(made.status()).toBe(200);
  const key = ((await made.json()) as { secret: string }).secret;
  const apps = (await (await request.get(`${API}/apps`, { headers: bearer(key) })).json()) as { id: string }[];
  return { key, appId: apps[0]!.id };
}
