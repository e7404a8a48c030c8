/**
 * The caller's address: the first X-Forwarded-For entry (set by a proxy in front of the app, or by Next.js
 * from the socket when there is none), else X-Real-IP.
 */
export function clientIp(headers: Headers): string | null {
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  const address = forwarded || headers.get('x-real-ip')?.trim() || null;
  if (!address) return null;
  // Node reports IPv4 peers on dual-stack sockets as ::ffff:a.b.c.d.
  return (address.startsWith('::ffff:') ? address.slice(7) : address).slice(0, 64);
}
