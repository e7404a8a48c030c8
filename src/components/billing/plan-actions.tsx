'use client';
// The plan page's buttons: choose a tier (Stripe Checkout, or the Customer Portal when a subscription is live) and
// manage the subscription (the Customer Portal). Both send the browser to Stripe.
import { useState } from 'react';
import { errorMessage, trpc } from '@/components/trpc';

function useRedirect() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function go(open: () => Promise<{ url: string }>) {
    setPending(true);
    setError(null);
    try {
      window.location.assign((await open()).url);
    } catch (caught) {
      setError(errorMessage(caught));
      setPending(false);
    }
  }
  return { go, pending, error };
}

export function PlanActions({
  tier,
  label,
}: {
  tier: 'solo' | 'pro' | 'business' | 'agency' | 'enterprise' | 'free';
  label: string;
}) {
  const { go, pending, error } = useRedirect();
  if (tier === 'free' || tier === 'enterprise') return null;
  return (
    <>
      <button
        type="button"
        className="primary"
        disabled={pending}
        onClick={() => go(() => trpc.billing.checkout.mutate({ tier }))}
        data-testid={`choose-${tier}`}
      >
        Choose {label}
      </button>
      {error && (
        <span className="notice" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

export function PortalButton({ subscription }: { subscription: string | null }) {
  const { go, pending, error } = useRedirect();
  return (
    <p className="row">
      <button
        type="button"
        disabled={pending}
        onClick={() => go(() => trpc.billing.portal.mutate())}
        data-testid="manage-subscription"
      >
        Change or cancel the subscription
      </button>
      {subscription && <span className="muted">Subscription: {subscription.replaceAll('_', ' ')}</span>}
      {error && (
        <span className="notice" role="alert">
          {error}
        </span>
      )}
    </p>
  );
}
