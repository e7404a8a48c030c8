// The landing page: what the product is, and the way in (a trial, the docs). A signed-in user goes straight to Apps,
// or to Members when their role reads no app data (billing).
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { getSignedInActor, serverModules } from '@/app/server-modules';
import { PublicHeader } from '@/components/layout/public-header';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const { newTrial, roleAllows } = await serverModules();
  const actor = await getSignedInActor();
  if (actor) redirect(roleAllows(actor.role, 'data.read') ? '/apps' : '/settings/members');
  const now = new Date();
  const trial = newTrial(now);
  const days = trial && Math.round((trial.endsAt.getTime() - now.getTime()) / 86_400_000);
  return (
    <>
      <PublicHeader />
      <main id="content" className="landing">
        <h1>App store optimization analytics, and an API to take them anywhere</h1>
        <p className="lead">
          Track your apps’ keyword ranks, ratings, reviews and store listings on the App Store and Google Play, see what
          to improve next, and pull every number into your own tools through a metered, signed, documented REST API.
        </p>
        <p className="row">
          <Link href="/sign-up" className="button primary">
            {trial ? `Start a free trial (${days} days, no card)` : 'Start a free trial'}
          </Link>
          <Link href="/docs" className="button">
            API docs
          </Link>
          <Link href="/sign-in" className="button">
            Sign in
          </Link>
        </p>
        <ul className="features">
          <li>
            <h2>Keyword ranks, daily</h2>
            <p className="muted">
              Every tracked term in every storefront, with volume, difficulty and a 365-day history you can compare.
            </p>
          </li>
          <li>
            <h2>What to do next</h2>
            <p className="muted">
              An ASO score with each pillar’s share, keyword opportunities with their reasons, and what competitors rank
              for.
            </p>
          </li>
          <li>
            <h2>Reviews you can act on</h2>
            <p className="muted">
              Sentiment, topics, bug reports and feature requests, from every review of every storefront.
            </p>
          </li>
          <li>
            <h2>An API built for production</h2>
            <p className="muted">
              Scoped keys with rotation, exact credits, problem+json errors, an OpenAPI 3.1 contract and signed
              webhooks.
            </p>
          </li>
        </ul>
      </main>
    </>
  );
}
