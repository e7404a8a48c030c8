// Next.js's proxy runs before a request is routed. It answers one kind of request: a public API request whose
// credential is refused on its shape alone (none, another scheme, rubbish, an API key with a wrong checksum), with
// the same 401 problem, headers and log line as the route (src/server/openapi/credential-gate.ts, which the route's
// handler calls first). Answered here, such a request skips Next.js's work for a dynamic route, about a tenth of a
// 401's cost (`npm run bench`); answered by the route, it would cost more than the bare route the bench compares it
// with, however little our handler did.
//
// The matcher sends the proxy only requests whose Authorization header is absent or not even shaped like a key or a
// session token; a request carrying a credential that needs a lookup never runs the proxy, so it pays nothing for it
// but the matcher's regular expressions. The matcher only saves work: the proxy decides with the route's own reading
// of the header and lets through anything it does not refuse.
import { NextResponse, type NextRequest } from 'next/server';
import { refuseUnreadableCredential } from '@/server/openapi/credential-gate';

/** Public without a credential: served by their own routes. */
const PUBLIC_DOCUMENTS = new Set(['/api/public/v1/openapi.json', '/api/public/v1/collection.json']);

export function proxy(request: NextRequest): Response {
  // A CORS preflight carries no credential by design; Next.js answers it as before.
  if (request.method === 'OPTIONS' || PUBLIC_DOCUMENTS.has(request.nextUrl.pathname)) return NextResponse.next();
  return refuseUnreadableCredential(request) ?? NextResponse.next();
}

// Next.js reads this object from the source when it builds, so it must be written out literally. Next.js tests
// `value` as `^(value)$` against the header; proxy.test.ts holds it to readBearer (src/server/auth/bearer.ts).
export const config = {
  matcher: [
    {
      source: '/api/public/v1/:path*',
      missing: [{ type: 'header', key: 'authorization', value: '[Bb][Ee][Aa][Rr][Ee][Rr] +(svc_live_[0-9A-Za-z]{38}|[A-Za-z0-9_-]*(\\.[A-Za-z0-9_-]*){4})\\s*' }],
    },
  ],
};
