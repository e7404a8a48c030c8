// Cross-site request forgery against the dashboard's session cookie.
import { config } from '@/server/core/config';
import { configuredOrigin } from '@/server/core/origin';

/**
 * Whether a request is a write (not GET or HEAD) a browser says comes from another site (Sec-Fetch-Site), or whose
 * Origin is not this app's. Browsers send one or both on every POST; a client without either is not a browser, so it
 * cannot be made to carry someone's session cookie. The session cookie's SameSite=Lax already keeps it off cross-site
 * POSTs; this does not rely on that alone.
 */
export function isCrossSiteWrite(request: Request): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const site = request.headers.get('sec-fetch-site');
  if (site !== null) return site !== 'same-origin';
  const origin = request.headers.get('origin');
  if (origin === null) return false;
  const nextAuthUrl = config().NEXTAUTH_URL;
  const own = [new URL(request.url).origin, configuredOrigin(), nextAuthUrl && new URL(nextAuthUrl).origin];
  return !own.includes(origin);
}
