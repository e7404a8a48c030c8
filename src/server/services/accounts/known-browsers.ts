// Known browsers (OWASP's device cookies): a browser that signed in as a user gets a cookie that says so, signed with a
// key derived from NEXTAUTH_SECRET, one cookie per email. With it, that browser keeps signing in as that user at once
// while the email is under attack from elsewhere (sign-in-limit.ts): an attacker who knows the email cannot slow down
// or block its owner's own browsers. The cookie names no email (its name is a keyed digest of it) and grants nothing
// by itself: the password is checked as always, and a known browser that fails 5 times in a row is no longer trusted.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { config } from '@/server/core/config';

/** A year: a browser signing in at least once a year stays known. */
const KNOWN_BROWSER_MAX_AGE_SECONDS = 365 * 24 * 3600;
const NAME_PREFIX = 'aso-known-browser-';

function key(): Buffer {
  const secret = config().NEXTAUTH_SECRET;
  if (!secret) throw new Error('NEXTAUTH_SECRET is not set: start the app with `npm start`, which provides one');
  return Buffer.from(hkdfSync('sha256', secret, '', 'aso known-browser cookies v1', 32));
}

const digest = (text: string) => createHmac('sha256', key()).update(text, 'utf8').digest('base64url');

/** The cookie's name for an email (normalised, as normalEmail gives it). */
export function knownBrowserCookieName(email: string): string {
  return `${NAME_PREFIX}${digest(`name:${email}`).slice(0, 16)}`;
}

export interface KnownBrowserCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
}

/** A new cookie that makes this browser known for `email`: a random id and its signature. */
export function issueKnownBrowser(email: string): KnownBrowserCookie {
  const id = randomBytes(16).toString('base64url');
  return {
    name: knownBrowserCookieName(email),
    value: `${id}.${digest(`browser:${email}:${id}`)}`,
    maxAgeSeconds: KNOWN_BROWSER_MAX_AGE_SECONDS,
  };
}

/** The id of the known browser these cookies show for `email`, or null when they show none (or a forged one). */
export function knownBrowserOf(email: string, cookies: ReadonlyMap<string, string>): string | null {
  const value = cookies.get(knownBrowserCookieName(email));
  const [id, signature, ...rest] = value?.split('.') ?? [];
  if (!id || !signature || rest.length) return null;
  const expected = Buffer.from(digest(`browser:${email}:${id}`));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
