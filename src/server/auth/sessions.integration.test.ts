// Issue 18 §2: next-auth re-encodes the session token with a new jti on every /api/auth/session call, and signing out
// ended only the jti it was given: the copies kept working as cookies and Bearer credentials, and could be renewed.
// Driven through next-auth's own handler (the one the /api/auth route runs) with the app's options.
import NextAuth from 'next-auth';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeAccount } from '../../../test/factories';
import { authOptions } from './auth-options';
import { resolveBearer } from './credentials';
import { actorFromSessionCookie } from './dashboard';
import { issueApiReferenceToken } from './session-token';

const ORIGIN = 'http://localhost:3000';
const COOKIE = 'next-auth.session-token';

type Jar = Record<string, string>;

// next-auth reads its public origin from NEXTAUTH_URL (`npm start` always sets it).
beforeAll(() => vi.stubEnv('NEXTAUTH_URL', ORIGIN));
afterAll(() => vi.unstubAllEnvs());

/** One call of next-auth's handler (its API-route form, which needs no Next.js request scope); cookies go to `jar`. */
async function auth(action: 'csrf' | 'session' | 'signout' | 'callback', jar: Jar, body?: Record<string, string>) {
  const headers = new Map<string, string | string[]>();
  let answer: unknown;
  const res = {
    status: () => res,
    setHeader: (name: string, value: string | string[]) => headers.set(name.toLowerCase(), value),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    end: () => {},
    send: (value: unknown) => void (answer = value),
    json: (value: unknown) => void (answer = value),
  };
  const req = {
    method: body ? 'POST' : 'GET',
    query: { nextauth: action === 'callback' ? ['callback', 'credentials'] : [action] },
    cookies: { ...jar },
    headers: { host: new URL(ORIGIN).host, 'x-forwarded-for': '198.51.100.23' },
    body: body ?? {},
  };
  await (NextAuth as unknown as (req: unknown, res: unknown, options: unknown) => Promise<void>)(req, res, {
    ...authOptions,
    secret: process.env.NEXTAUTH_SECRET,
  });
  for (const line of [headers.get('set-cookie') ?? []].flat()) {
    const [pair = ''] = line.split(';');
    const at = pair.indexOf('=');
    jar[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1));
  }
  return { body: answer };
}

async function signIn(email: string) {
  const jar: Jar = {};
  const { body } = await auth('csrf', jar);
  const csrfToken = (body as { csrfToken: string }).csrfToken;
  await auth('callback', jar, { csrfToken, email, password: 'correct horse battery', json: 'true' });
  expect(jar[COOKIE]).toBeTruthy();
  return { jar, csrfToken };
}

const asCookie = (token: string) => actorFromSessionCookie((name) => (name === COOKIE ? token : undefined));
const asBearer = async (token: string) =>
  (await resolveBearer(`Bearer ${token}`, { now: new Date(), ip: null })).status;

describe('a signed-in session', () => {
  it('ends at sign-out with every token minted for it: as a cookie, as a Bearer credential and for renewal', async () => {
    const owner = await makeAccount('pro');
    const { jar, csrfToken } = await signIn(owner.email);
    const original = jar[COOKIE]!;
    // Two renewals: each answers a new token (a new jti) for the same session.
    const copies = [original];
    for (let renewal = 0; renewal < 2; renewal++) {
      const renewed: Jar = { [COOKIE]: copies.at(-1)! };
      await auth('session', renewed);
      expect(renewed[COOKIE]).toBeTruthy();
      expect(renewed[COOKIE]).not.toBe(copies.at(-1));
      copies.push(renewed[COOKIE]!);
    }
    for (const token of copies) {
      expect((await asCookie(token))?.userId).toBe(owner.userId);
      expect(await asBearer(token)).toBe('valid');
    }

    // Sign out with the first token only.
    await auth('signout', { ...jar, [COOKIE]: original }, { csrfToken });

    for (const [index, token] of copies.entries()) {
      expect(await asCookie(token), `copy ${index} as a cookie`).toBeNull();
      expect(await asBearer(token), `copy ${index} as a Bearer credential`).toBe('invalid_token');
      const renewal: Jar = { [COOKIE]: token };
      const answer = await auth('session', renewal);
      expect(answer.body, `copy ${index} renewed`).toEqual({});
      expect(renewal[COOKIE] ?? '', `copy ${index} renewed`).toBe('');
    }
  });

  it('is one of its own: signing out one sign-in leaves the user’s other sign-ins working', async () => {
    const owner = await makeAccount('pro');
    const laptop = await signIn(owner.email);
    const phone = await signIn(owner.email);
    const laptopToken = laptop.jar[COOKIE]!;
    await auth('signout', laptop.jar, { csrfToken: laptop.csrfToken });
    expect(laptop.jar[COOKIE]).toBe('');
    expect(await asBearer(laptopToken)).toBe('invalid_token');
    expect(await asBearer(phone.jar[COOKIE]!)).toBe('valid');
  });
});

// Issue 18 §3: /docs/api embedded a one-hour session token in its HTML, where page scripts can read it. Sent as the
// session cookie it created API keys through /api/trpc, it survived sign-out, and it could be renewed to 7 days.
describe('the API reference’s test-request token', () => {
  async function referenceTokenOfNewSignIn() {
    const owner = await makeAccount('pro');
    const signedIn = await signIn(owner.email);
    const actor = await asCookie(signedIn.jar[COOKIE]!);
    const token = await issueApiReferenceToken({ userId: actor!.userId!, sessionId: actor!.sessionId! });
    return { owner, signedIn, token };
  }

  it('calls the public API as the user, and nothing else: no cookie, no renewal', async () => {
    const { owner, token } = await referenceTokenOfNewSignIn();
    const resolved = await resolveBearer(`Bearer ${token}`, { now: new Date(), ip: null });
    expect(resolved).toMatchObject({
      status: 'valid',
      actor: { kind: 'session', userId: owner.userId, accountId: owner.accountId },
    });
    expect(await asCookie(token)).toBeNull();
    const renewal: Jar = { [COOKIE]: token };
    expect((await auth('session', renewal)).body).toEqual({});
    expect(renewal[COOKIE] ?? '').toBe('');
  });

  it('ends at the sign-out of its session', async () => {
    const { signedIn, token } = await referenceTokenOfNewSignIn();
    await auth('signout', signedIn.jar, { csrfToken: signedIn.csrfToken });
    expect(await asBearer(token)).toBe('invalid_token');
  });

  it('expires within an hour', async () => {
    const { token } = await referenceTokenOfNewSignIn();
    vi.useFakeTimers({ now: Date.now() + 3_600_000 + 16_000, toFake: ['Date'] });
    try {
      expect(await asBearer(token)).toBe('expired');
    } finally {
      vi.useRealTimers();
    }
  });
});
