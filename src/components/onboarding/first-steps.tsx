'use client';
// A new account's checklist on its home page: add an app, create a key, make a first call. Each step ticks itself
// when it happens (the page asks every few seconds until all three have), the last one at the first charged call.
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { trpc } from '@/components/trpc';

interface Steps {
  appAdded: boolean;
  keyCreated: boolean;
  firstCall: boolean;
}

const POLL_MS = 3000;

export function FirstSteps({ initial, baseUrl }: { initial: Steps; baseUrl: string }) {
  const [steps, setSteps] = useState(initial);
  const done = steps.appAdded && steps.keyCreated && steps.firstCall;
  useEffect(() => {
    if (done) return;
    const timer = setInterval(() => {
      trpc.account.onboarding.query().then(setSteps, () => {});
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [done]);
  const items: { key: keyof Steps; label: React.ReactNode }[] = [
    { key: 'appAdded', label: <>Add an app: paste its store URL or search for it below.</> },
    {
      key: 'keyCreated',
      label: (
        <>
          Create an API key under <Link href="/settings/api">Settings → API access</Link>.
        </>
      ),
    },
    {
      key: 'firstCall',
      label: (
        <>
          Make a first call: <code>curl -H &quot;Authorization: Bearer svc_live_…&quot; {baseUrl}/apps</code>
        </>
      ),
    },
  ];
  return (
    <section className="panel" data-testid="first-steps" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">{done ? 'You are set up' : 'Get started'}</h2>
      <ol className="steps">
        {items.map((item) => (
          <li key={item.key} data-testid={`step-${item.key}`} data-done={steps[item.key]}>
            <span aria-hidden="true">{steps[item.key] ? '✓' : '○'}</span> {item.label}
            <span className="visually-hidden">{steps[item.key] ? ' (done)' : ' (to do)'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
