// /docs/api: the API reference, rendered from GET /api/public/v1/openapi.json.
import Link from 'next/link';
import { ApiReference } from '@/components/docs/api-reference';
import { getSignedInActor, serverModules } from '@/app/server-modules';

export const metadata = { title: 'API reference · ASO Analytics' };
export const dynamic = 'force-dynamic';

export default async function ApiReferencePage() {
  const actor = await getSignedInActor();
  // Page scripts can read it, so it is no session cookie: a Bearer credential of the public API only, for an hour at
  // most and until this sign-in ends (src/server/auth/session-token.ts).
  const { apiReferenceScriptUrl, issueApiReferenceToken } = await serverModules();
  const token =
    actor?.userId && actor.sessionId
      ? await issueApiReferenceToken({ userId: actor.userId, sessionId: actor.sessionId })
      : null;
  return (
    // Not in <main>: the site's main is a centred 1100 px column, and Scalar lays out its own full-width page.
    <div className="api-reference">
      <p className="muted" style={{ padding: '0.75rem 1rem', margin: 0 }}>
        New here? Start with <Link href="/docs">Getting started</Link>. The document itself:{' '}
        <a href="/api/public/v1/openapi.json">openapi.json</a> · Postman:{' '}
        <a href="/api/public/v1/collection.json">collection.json</a>.{' '}
        {token
          ? 'Test requests are sent as you, and cost your account’s credits.'
          : 'Sign in, or paste an API key under Authentication, to send test requests.'}
      </p>
      <ApiReference token={token} scriptUrl={await apiReferenceScriptUrl()} />
    </div>
  );
}
