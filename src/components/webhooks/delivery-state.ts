// A webhook delivery's state as the dashboard says it.

interface DeliveryFacts {
  status: string;
  requested: boolean;
  attempts: readonly unknown[];
}

/**
 * A delivery's state in words: a pending one whose attempts failed says so, with its retry to come (the Next retry
 * column), rather than a plain "pending" that read as not tried yet.
 */
export function deliveryState(delivery: DeliveryFacts): { text: string; badge: string } {
  if (delivery.requested) return { text: 'queued', badge: '' };
  if (delivery.status === 'succeeded') return { text: 'succeeded', badge: 'active' };
  if (delivery.status === 'failed') return { text: 'failed, no more retries', badge: 'revoked' };
  const failures = delivery.attempts.length;
  if (failures === 0) return { text: 'pending', badge: '' };
  return { text: `failed ${failures === 1 ? 'once' : `${failures} times`}, retrying`, badge: 'revoked' };
}
