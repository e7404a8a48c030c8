// The consent page of an OAuth authorization (src/server/oauth/consent.ts): an AI agent or another app asks to use
// the MCP server on the signed-in user's account. The owner chooses the scope, the apps it may reach and a monthly
// budget, as for a key; the form posts to the app's server, which finishes the authorization.
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { PublicHeader } from '@/components/layout/public-header';
import { getDashboardCaller, getSignedInActor, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Connect an app · ASO Analytics' };

const SCOPE_LABELS = {
  'read-only': {
    title: 'Read only',
    detail: 'Read your apps’ data, rankings, reviews and usage. Each read is charged as on the API.',
  },
  'read-write': { title: 'Read and write', detail: 'Also add apps, keywords and competitors to your account.' },
} as const;

export default async function ConsentPage({
  params,
  searchParams,
}: {
  params: Promise<{ uid: string }>;
  searchParams: Promise<{ error?: string }>;
}) {
  const { uid } = await params;
  const { error } = await searchParams;
  const path = `/oauth/consent/${encodeURIComponent(uid)}`;
  if (!(await getSignedInActor('live'))) redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  const { oauthConsentRequest, roleAllows, ROLE_LABELS } = await serverModules();
  const request = await oauthConsentRequest(uid);
  if (!request) {
    return (
      <Frame title="This request has expired">
        <p>
          The app’s sign-in request is no longer pending: it was answered already, or it is more than an hour old. Start
          again from the app.
        </p>
      </Frame>
    );
  }
  const caller = await getDashboardCaller('live');
  const account = await caller.account.get();
  // A connection is a credential of the account: a member whose role manages no keys is told so, and reads no apps.
  const { role } = account;
  const mayConnect = roleAllows(role, 'keys.manage');
  const apps = mayConnect ? await caller.apps.list({}) : [];
  return (
    <Frame title={`Connect ${request.clientName} to your account`}>
      <div className="row" data-testid="consent-client">
        {request.logoUri && (
          // The client's own logo, from its own address: not ours to optimise, and no referrer is sent with it.
          <img src={request.logoUri} alt="" width={48} height={48} referrerPolicy="no-referrer" />
        )}
        <p>
          <strong>{request.clientName}</strong> asks to use the ASO Analytics MCP server on the account{' '}
          <strong>{account.name}</strong>. After you allow it, you go back to <code>{request.redirectHost}</code>.
        </p>
      </div>
      <p className="muted" data-testid="consent-client-source">
        {request.metadataHost ? (
          <>
            Its name and logo come from <code>{request.metadataHost}</code>, where the app publishes its metadata.
          </>
        ) : (
          <>The app registered itself: its name is its own claim, which no one has checked.</>
        )}
      </p>
      {!account.plan.apiAccess || !mayConnect ? (
        <>
          {!mayConnect ? (
            <p className="error" role="alert">
              Your role in this account, {role ? ROLE_LABELS[role].toLowerCase() : 'none'}, does not let you connect
              apps: ask an owner, an admin or a developer of the account.
            </p>
          ) : (
            <p className="error" role="alert">
              Your plan ({account.plan.label}) has no API access, which connected apps need.{' '}
              <Link href="/settings/billing">Choose a plan</Link> and then start again from the app.
            </p>
          )}
          <form method="post" action={path}>
            <input type="hidden" name="decision" value="deny" />
            <button type="submit">Back to the app</button>
          </form>
        </>
      ) : (
        <form method="post" action={path} className="stack">
          {error && (
            <p className="error" role="alert">
              {error}
            </p>
          )}
          <fieldset>
            <legend>What it may do</legend>
            {request.scopes.map((scope, index) => (
              <label key={scope} className="inline">
                <input type="radio" name="scope" value={scope} defaultChecked={index === 0} required />{' '}
                {SCOPE_LABELS[scope].title}: <span className="muted">{SCOPE_LABELS[scope].detail}</span>
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend>Which apps it may reach</legend>
            <label className="inline">
              <input type="radio" name="apps" value="all" defaultChecked /> All apps, those you add later included
            </label>
            <label className="inline">
              <input type="radio" name="apps" value="some" disabled={apps.length === 0} /> Only the apps ticked below
            </label>
            {apps.map((app) => (
              <label key={app.id} className="inline" style={{ marginLeft: '1.5rem' }}>
                <input type="checkbox" name="appIds" value={app.id} /> {app.name}{' '}
                <span className="muted">({app.store === 'app_store' ? 'App Store' : 'Google Play'})</span>
              </label>
            ))}
          </fieldset>
          <label>
            Monthly credit budget (optional)
            <input
              type="number"
              name="monthlyBudget"
              min={1}
              step={1}
              inputMode="numeric"
              placeholder="No budget: your plan’s allowance"
            />
          </label>
          <p className="muted">
            Credits it spends are your account’s, charged as on the API. You can change these restrictions or revoke the
            connection at any time in Settings → API access.
          </p>
          <div className="row">
            <button className="primary" type="submit" name="decision" value="allow">
              Allow
            </button>
            <button type="submit" name="decision" value="deny" formNoValidate>
              Deny
            </button>
          </div>
        </form>
      )}
    </Frame>
  );
}

function Frame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <>
      <PublicHeader />
      <main id="content">
        <div className="panel auth-card" style={{ maxWidth: 560 }}>
          <h1>{title}</h1>
          {children}
        </div>
      </main>
    </>
  );
}
