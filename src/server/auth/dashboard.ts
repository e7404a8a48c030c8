// The signed-in user of a dashboard page or tRPC call, from the session cookie, with the same checks as a
// Bearer session token (signature, expiry, the session not ended). The API reference's tokens are no cookie.
import type { Actor } from './actor';
import { sessionCookieNames, verifySessionToken } from './session-token';

export function sessionTokenFromCookies(get: (name: string) => string | undefined): string | undefined {
  for (const name of sessionCookieNames()) {
    const value = get(name);
    if (value) return value;
  }
  return undefined;
}

export async function actorFromSessionCookie(get: (name: string) => string | undefined): Promise<Actor | null> {
  const token = sessionTokenFromCookies(get);
  if (!token) return null;
  const result = await verifySessionToken(token, { use: 'cookie' });
  return result.status === 'valid' ? result.actor : null;
}
