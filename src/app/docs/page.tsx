// /docs: getting started with the public API (curl, credits, errors, pagination, webhooks, versioning, storefronts).
import Link from 'next/link';
import { serverModules } from '@/app/server-modules';
import { CodeBlock } from '@/components/common/code-block';

export const metadata = { title: 'Getting started · ASO Analytics API' };
export const dynamic = 'force-dynamic';

export default async function GettingStartedPage() {
  const { pageOrigin, PLAN_TIERS, PLANS, PROBLEM_TYPES, REQUESTS_PER_MINUTE, STOREFRONT_COUNTRIES } =
    await serverModules();
  const origin = pageOrigin();
  const base = `${origin}/api/public/v1`;
  const paid = PLAN_TIERS.map((tier) => PLANS[tier]).filter((plan) => plan.apiAccess);
  const capText = (cap: number | null) => (cap === null ? 'no cap' : cap.toLocaleString('en-US'));
  return (
    <main>
      <div className="panel">
        <h1>Getting started with the API</h1>
        <p>
          The API reference: <Link href="/docs/api">/docs/api</Link> (try calls there) · OpenAPI 3.1:{' '}
          <a href="/api/public/v1/openapi.json">openapi.json</a> · Postman:{' '}
          <a href="/api/public/v1/collection.json">collection.json</a> ·{' '}
          <Link href="/docs/problems">Problem types</Link> · <Link href="/docs/webhooks">Webhooks</Link> ·{' '}
          <Link href="/docs/mcp">MCP server for AI assistants</Link>
        </p>

        <h2>1. Create a key</h2>
        <p>
          Under <Link href="/settings/api">Settings → API access</Link>, create a key. It is shown once:{' '}
          <code>svc_live_…</code>. Read-only keys can call every <code>GET</code>; the two <code>POST</code>s need a
          read-write key. Send it as a Bearer credential:
        </p>
        <CodeBlock
          testId="curl-list"
          code={`curl ${base}/apps \\
  -H "Authorization: Bearer $API_KEY"`}
        />
        <CodeBlock
          code={`curl "${base}/apps/$APP_ID/keywords?rankWindow=30d" \\
  -H "Authorization: Bearer $API_KEY"

curl -X POST ${base}/apps/$APP_ID/keywords \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -H "Idempotency-Key: $(uuidgen)" \\
  -d '{"terms": ["sleep sounds", "white noise"]}'`}
        />

        <h2>2. Credits and limits</h2>
        <p>
          Each call costs credits, charged only when it succeeds: most reads 1, keyword opportunities 2, each{' '}
          <code>POST</code> 2, keyword research 8, <code>GET /usage</code> 0. The monthly allowance resets on the 1st
          (UTC):{' '}
          {paid
            .map(
              (plan) =>
                `${plan.label} ${plan.monthlyCredits === null ? 'unlimited' : plan.monthlyCredits.toLocaleString('en-US')}`,
            )
            .join(' · ')}
          . Every answer tells you where you stand: <code>X-Credits-Limit</code>, <code>X-Credits-Remaining</code>,{' '}
          <code>X-Credits-Used</code>, <code>X-Credits-Reset</code>, <code>X-Credits-Cost</code>. When the allowance is
          spent you get 402; <code>GET /usage</code> breaks it down by endpoint, key and day. Requests per minute per
          key:{' '}
          {paid.map((plan) => `${plan.label} ${REQUESTS_PER_MINUTE[plan.tier].toLocaleString('en-US')}`).join(' · ')}{' '}
          (429 with <code>Retry-After</code>).
        </p>
        <p>
          Each plan also caps what an account tracks at once, apps / keywords:{' '}
          {PLAN_TIERS.map((tier) => PLANS[tier])
            .map((plan) => `${plan.label} ${capText(plan.caps.trackedApps)} / ${capText(plan.caps.trackedKeywords)}`)
            .join(' · ')}
          . Each app is tracked in at most{' '}
          {PLAN_TIERS.map((tier) => PLANS[tier])
            .map((plan) => `${plan.label} ${capText(plan.caps.storefrontsPerApp)}`)
            .join(' · ')}{' '}
          storefronts, its primary one included. A request past a cap is refused whole with 403{' '}
          <code>limit-reached</code>, naming the cap and its value. A new account starts on a trial with its own monthly
          allowance (<code>GET /usage</code> shows <code>trial</code>); at its end the account moves to Free and a{' '}
          <code>plan.changed</code> event fires. Start tracking an app with <code>POST /apps</code> and its store URL;
          its history loads in the background (<code>backfill</code> on the app).
        </p>
        <p>
          Every read that takes <code>country</code> answers for any storefront from the first call: one the app was
          never observed in is observed during that call, through the store, so that first call may take the store’s
          time (a few seconds). The app is tracked there from then on (<code>GET /apps/{'{id}'}</code> lists it, the
          daily refresh observes it), and its history there starts that day (<code>observedSince</code>). If the store
          fails meanwhile the answer is 503 <code>store-unavailable</code> and nothing is charged; if the store does not
          sell the app there, 404 says so.
        </p>

        <h2>3. Errors</h2>
        <p>
          Errors are <code>application/problem+json</code>: <code>type</code> (a link to its explanation),{' '}
          <code>title</code>, <code>status</code>, <code>detail</code>, <code>instance</code>, <code>requestId</code>{' '}
          and <code>code</code> (the type’s slug); validation errors list each field in <code>errors</code>. Branch on{' '}
          <code>status</code> and <code>code</code>, never on the text. The types:
        </p>
        <ul>
          {Object.values(PROBLEM_TYPES).map((type) => (
            <li key={type.slug}>
              {type.status} <Link href={`/docs/problems/${type.slug}`}>{type.slug}</Link>: {type.title}
            </li>
          ))}
        </ul>
        <CodeBlock
          code={`{
  "type": "${origin}/docs/problems/validation-error",
  "title": "Your request is not valid",
  "status": 400,
  "detail": "The input is not valid.",
  "instance": "/api/public/v1/apps/…/reviews",
  "requestId": "…",
  "errors": [{ "in": "query", "name": "pageSize", "detail": "Must be a whole number from 1 to 100." }]
}`}
        />

        <h2>4. Pagination</h2>
        <p>
          <code>GET /apps/{'{id}'}/reviews</code> is paged: <code>page</code> (from 1) and <code>pageSize</code> (1–100,
          default 20); the answer carries <code>items</code>, <code>page</code>, <code>pageSize</code>,{' '}
          <code>total</code> and <code>totalPages</code>. The long lists (<code>GET /apps</code>,{' '}
          <code>…/keywords</code>, <code>…/keyword-spy</code>, <code>…/metadata/changelog</code>) come whole, as they
          always have, or one page at a time when you send <code>page</code> and/or <code>pageSize</code> (1–1,000,
          default 100). Every paged answer carries <code>X-Total-Count</code> and, once you page, a <code>Link</code>{' '}
          header (RFC 8288) with <code>first</code>, <code>prev</code>, <code>next</code> and <code>last</code>: follow{' '}
          <code>next</code> until there is none. Each page is one call, charged like the whole list.
        </p>

        <h2>5. Retries and idempotency</h2>
        <p>
          Retry 429 after <code>Retry-After</code> and 5xx with backoff. Send an <code>Idempotency-Key</code> with each{' '}
          <code>POST</code>: a retry with the same key and body within 24 hours gets the first answer (
          <code>Idempotent-Replayed: true</code>) and is not charged again.
        </p>

        <h2>6. Webhooks</h2>
        <p>
          Add endpoints under <Link href="/settings/webhooks">Settings → Webhooks</Link>. Each delivery is signed;
          verify it with the snippets on <Link href="/docs/webhooks">the webhooks page</Link> and deduplicate by{' '}
          <code>X-Service-Delivery</code>.
        </p>

        <h2>7. Versioning</h2>
        <p>
          This is v1, at <code>/api/public/v1</code>. Within v1 changes are additive only (new endpoints, optional
          parameters, response members, event kinds); nothing is removed or renamed. Ignore members you do not know. A
          breaking change would come as <code>/api/public/v2</code>, with v1 kept running alongside.
        </p>

        <h2 id="storefronts">8. Storefronts</h2>
        <p>
          A <code>country</code> is the ISO 3166-1 alpha-2 code of one of the {STOREFRONT_COUNTRIES.size} App Store
          storefronts, in any case (answers give it upper-case; XK is Kosovo, as Apple codes it):
        </p>
        <p data-testid="storefronts" style={{ overflowWrap: 'anywhere' }}>
          <code>{[...STOREFRONT_COUNTRIES].sort().join(' ')}</code>
        </p>

        <h2 id="test-mode">9. Test mode</h2>
        <p>
          Every account, Free included, has a test sandbox: sample apps of both stores with a year of generated history,
          apart from your live data. Switch <strong>Test mode</strong> on in the dashboard’s header and create a key
          under <Link href="/settings/api">API access</Link>: test keys start <code>svc_test_</code> and work on the
          REST API and the MCP server alike. Test calls never spend your live credits: they carry the credit headers of
          test mode’s own allowance ({PLANS.test.monthlyCredits?.toLocaleString('en-US')} credits a month,{' '}
          {REQUESTS_PER_MINUTE.test.toLocaleString('en-US')} requests a minute per key) and{' '}
          <code>X-Test-Mode: true</code>. A live id with a test key is 404, and a test id with a live key. Webhook
          endpoints made in test mode receive the sandbox’s events only, with <code>livemode: false</code>. With a
          session token, send <code>X-Test-Mode: true</code> to act in test mode (the settings endpoints then make test
          keys and endpoints).
        </p>
        <p>
          Ask a test call for the error your client must handle with <code>X-Test-Trigger</code>; the answer is the live
          error’s, and costs nothing:
        </p>
        <ul data-testid="test-triggers">
          <li>
            <code>credits-exhausted</code>: 402, with the credit headers as if the allowance were spent
          </li>
          <li>
            <code>key-budget-exhausted</code>: 402, the key’s monthly budget spent
          </li>
          <li>
            <code>rate-limited</code>: 429 with <code>Retry-After: 1</code>
          </li>
          <li>
            <code>store-unavailable</code>: 503 with <code>Retry-After</code>
          </li>
          <li>
            <code>validation-error</code>: 400, its <code>errors</code> naming the header
          </li>
          <li>
            <code>not-found</code>: 404
          </li>
          <li>
            <code>slow</code> or <code>slow=2500</code>: the normal answer, held 5 s (or the milliseconds given, at most
            30,000)
          </li>
          <li>
            <code>review-deleted</code>, <code>reply-refused</code> or <code>credential-revoked</code>, on{' '}
            <code>
              POST /apps/{'{id}'}/reviews/{'{reviewId}'}/reply-drafts
            </code>{' '}
            only: the draft is made as usual, and once approved the sandbox’s simulated store refuses it so (the sample
            apps are owned by simulated store accounts, whose replies are otherwise sent at once)
          </li>
        </ul>
        <CodeBlock code={`curl -H "Authorization: Bearer svc_test_…" -H "X-Test-Trigger: rate-limited" ${base}/apps`} />
        <p>
          A live key sending <code>X-Test-Trigger</code> or <code>X-Test-Mode</code> gets 400, never a live answer.
          “Reset test data” under API access puts the sandbox back to its sample apps.
        </p>
      </div>
    </main>
  );
}
