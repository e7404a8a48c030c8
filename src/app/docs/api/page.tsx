// /docs/api: the API reference, rendered from GET /api/public/v1/openapi.json.
import Link from 'next/link';
import { ApiReference } from '@/components/docs/api-reference';
import { getSignedInActor } from '@/server/api/server-caller';
import { issueSessionToken } from '@/server/auth/session-token';
import { db } from '@/server/db';

export const metadata = { title: 'API reference · ASO Analytics' };
export const dynamic = 'force-dynamic';

/** Lifetime of the token that pre-authorises a signed-in user's test calls. */
const TRY_IT_TOKEN_SECONDS = 3600;

export default async function ApiReferencePage() {
  const actor = await getSignedInActor();
  const user = actor?.userId ? await db.user.findUnique({ where: { id: actor.userId }, select: { id: true, email: true, accountId: true } }) : null;
  const token = user ? await issueSessionToken(user, TRY_IT_TOKEN_SECONDS) : null;
  return (
    // Not in <main>: the site's main is a centred 1100 px column, and Scalar lays out its own full-width page.
    <div className="api-reference">
      <p className="muted" style={{ padding: '0.75rem 1rem', margin: 0 }}>
        New here? Start with <Link href="/docs">Getting started</Link>. The document itself: <a href="/api/public/v1/openapi.json">openapi.json</a> · Postman:{' '}
        <a href="/api/public/v1/collection.json">collection.json</a>.{' '}
        {token ? 'Test requests are sent as you, and cost your account’s credits.' : 'Sign in, or paste an API key under Authentication, to send test requests.'}
      </p>
      <ApiReference token={token} />
    </div>
  );
}
