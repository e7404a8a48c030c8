// The signed-in user of a dashboard page or tRPC call, from the session cookie, with the same checks as a
// Bearer session token (signature, expiry, the session not ended). The API reference's tokens are no cookie. In test
// mode (the dashboard's switch, ./test-mode.ts), the user acts on the account's sandbox.
import type { Actor } from './actor';
import { sessionCookieNames, verifySessionToken } from './session-token';
import { sessionOnSandbox, TEST_MODE_COOKIE } from './test-mode';

function sessionTokenFromCookies(get: (name: string) => string | undefined): string | undefined {
  for (const name of sessionCookieNames()) {
    const value = get(name);
    if (value) return value;
  }
  return undefined;
}

/** `mode`: 'switch', the dashboard's test-mode switch applies; 'live', the live account whatever it says (OAuth consent). */
export async function actorFromSessionCookie(
  get: (name: string) => string | undefined,
  { mode = 'switch' }: { mode?: 'switch' | 'live' } = {},
): Promise<Actor | null> {
  const token = sessionTokenFromCookies(get);
  if (!token) return null;
  const result = await verifySessionToken(token, { use: 'cookie' });
  if (result.status !== 'valid') return null;
  return mode === 'switch' && get(TEST_MODE_COOKIE) === 'test' ? sessionOnSandbox(result.actor) : result.actor;
}
