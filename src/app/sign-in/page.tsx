import Link from 'next/link';
import { PublicHeader } from '@/components/layout/public-header';
import { Suspense } from 'react';
import { SignInForm } from '@/components/auth/sign-in-form';

export const metadata = { title: 'Sign in · ASO Analytics' };

export default function SignInPage() {
  return (
    <>
      <PublicHeader />
      <main id="content">
        <div className="panel auth-card">
          <h1>Sign in</h1>
          <Suspense>
            <SignInForm />
          </Suspense>
          <p className="muted">
            No account yet? <Link href="/sign-up">Create one</Link>.
          </p>
        </div>
      </main>
    </>
  );
}
