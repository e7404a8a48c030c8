/**
 * The caller's address: X-Forwarded-For as the app's HTTP server settled it (./client-address.ts): the socket's peer,
 * or the client a trusted proxy names. Never what the client claims.
 */
export function clientIp(headers: Headers): string | null {
  return headers.get('x-forwarded-for')?.split(',')[0]?.trim().slice(0, 64) || null;
}
