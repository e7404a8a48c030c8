/**
 * The caller's address: X-Forwarded-For as the app's HTTP server settled it (src/server/http/client-address.ts): the
 * socket's peer, or the client a trusted proxy names. Never what the client claims.
 */
export function clientIpOf(forwardedFor: string | string[] | null | undefined): string | null {
  const value = Array.isArray(forwardedFor) ? forwardedFor[0] : forwardedFor;
  return value?.split(',')[0]?.trim().slice(0, 64) || null;
}

/** The same, from a WHATWG Headers (a route handler's or a server component's). */
export function clientIp(headers: Headers): string | null {
  return clientIpOf(headers.get('x-forwarded-for'));
}
