import Link from 'next/link';
import { PublicHeader } from '@/components/layout/public-header';
import { SignUpForm } from '@/components/auth/sign-up-form';
import { serverModules } from '@/app/server-modules';

export const metadata = { title: 'Create an account · ASO Analytics' };
export const dynamic = 'force-dynamic';

export default async function SignUpPage() {
  const { newTrial, PLANS } = await serverModules();
  const now = new Date();
  const trial = newTrial(now);
  const days = trial && Math.round((trial.endsAt.getTime() - now.getTime()) / 86_400_000);
  return (
    <>
      <PublicHeader />
      <main id="content">
        <div className="panel auth-card">
          <h1>Create an account</h1>
          <p className="muted" data-testid="trial-offer">
            {trial
              ? `New accounts start on a ${days}-day trial of ${PLANS[trial.tier].label}, with ${trial.credits.toLocaleString('en-US')} API credits a month and no card. Then choose a plan, or stay on Free.`
              : 'New accounts start on the Free plan. API access comes with the paid plans.'}
          </p>
          <SignUpForm />
          <p className="muted">
            Already have an account? <Link href="/sign-in">Sign in</Link>.
          </p>
        </div>
      </main>
    </>
  );
}
