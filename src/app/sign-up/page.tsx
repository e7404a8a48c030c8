import Link from 'next/link';
import { SignUpForm } from '@/components/auth/sign-up-form';

export const metadata = { title: 'Create an account · ASO Analytics' };

export default function SignUpPage() {
  return (
    <main>
      <div className="panel auth-card">
        <h1>Create an account</h1>
        <p className="muted">New accounts start on the Free plan. API access comes with the paid plans.</p>
        <SignUpForm />
        <p className="muted">
          Already have an account? <Link href="/sign-in">Sign in</Link>.
        </p>
      </div>
    </main>
  );
}
