import { describe, expect, it } from 'vitest';
import { deliveryState } from './delivery-state';

const delivery = (status: string, attempts: number, requested = false) => ({
  status,
  requested,
  attempts: Array.from({ length: attempts }, () => ({})),
});

describe('a delivery’s state', () => {
  it('says a pending delivery whose attempts failed is failing and retried, not merely pending', () => {
    expect(deliveryState(delivery('pending', 0))).toEqual({ text: 'pending', badge: '' });
    expect(deliveryState(delivery('pending', 1))).toEqual({ text: 'failed once, retrying', badge: 'revoked' });
    expect(deliveryState(delivery('pending', 2))).toEqual({ text: 'failed 2 times, retrying', badge: 'revoked' });
    expect(deliveryState(delivery('failed', 6)).text).toBe('failed, no more retries');
    expect(deliveryState(delivery('succeeded', 1)).text).toBe('succeeded');
    expect(deliveryState(delivery('failed', 6, true)).text).toBe('queued');
  });
});
