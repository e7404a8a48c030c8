// Live keyword research for the app, through the public API's own endpoint (GET /apps/{id}/keywords/research) and at
// its cost, as the signed-in user; the terms found can be tracked from here.
import { KeywordResearch } from '@/components/apps/keyword-research';
import { getSignedInActor, serverModules } from '@/app/server-modules';
import { readAppView, type AppViewParams } from '../app-view';

export const metadata = { title: 'Research · ASO Analytics' };

export default async function ResearchPage(props: AppViewParams) {
  const { caller, app, country } = await readAppView(props);
  const { declaredCredits, issueApiReferenceToken, LATEST_VERSION, PLANS } = await serverModules();
  const [account, usage, tracked, room, actor] = await Promise.all([
    caller.account.get(),
    caller.usage.get({}),
    caller.keywords.list({ id: app.id, country }),
    caller.keywords.room({}),
    getSignedInActor(),
  ]);
  // The API reference's token of this sign-in: a Bearer credential of the public API only, an hour at most.
  const token =
    actor?.userId && actor.sessionId
      ? await issueApiReferenceToken({ userId: actor.userId, sessionId: actor.sessionId })
      : null;
  const apiAccess = !account.livemode || PLANS[account.plan.tier].apiAccess;
  return (
    <section className="panel" aria-labelledby="research-title">
      <h2 id="research-title">Research keywords ({country})</h2>
      <p className="muted">
        Volume, difficulty, this app’s rank and the top apps for any term, read from the store now. It costs what it
        costs over the API, from this account’s monthly credits; tracking a term you found is free.
      </p>
      <KeywordResearch
        appId={app.id}
        country={country}
        token={token}
        testMode={!account.livemode}
        cost={declaredCredits('keywords.research')}
        remaining={usage.remaining}
        apiAccess={apiAccess}
        planLabel={account.plan.label}
        tracked={tracked.filter((keyword) => keyword.country === country).map((keyword) => keyword.term)}
        room={room}
        apiVersion={LATEST_VERSION}
      />
    </section>
  );
}
