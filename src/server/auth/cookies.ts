// The Cookie header, read one way by every reader of the session (next-auth's sign-in route, the OAuth consent, the
// dashboard's tRPC endpoint, the pages): readers that disagree on a name sent twice would each see a different session.

/**
 * The Cookie header's pairs. Of a name sent twice, the first wins: browsers send the cookie of the most specific path
 * first (RFC 6265 §5.4), and a cookie set for a wider path or a parent domain comes after. A value is percent-decoded
 * when it is percent-encoding, and kept as sent when it is not: a cookie's value is the client's to choose, and never a
 * reason for a 5xx.
 */
export function parseCookies(header: string | null | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of header?.split(';') ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const name = pair.slice(0, at).trim();
    if (!cookies.has(name)) cookies.set(name, decoded(pair.slice(at + 1).trim()));
  }
  return cookies;
}

function decoded(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The header's cookies as a reader of one name, as the session's readers take them. */
export function cookieReaderOf(header: string | null | undefined): (name: string) => string | undefined {
  const cookies = parseCookies(header);
  return (name) => cookies.get(name);
}
