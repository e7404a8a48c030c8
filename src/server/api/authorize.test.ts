import { describe, expect, it } from 'vitest';
import type { Actor } from '@/server/auth/actor';
import { authorize, INSUFFICIENT_SCOPE_CHALLENGE } from './trpc';

const actor = (overrides: Partial<Actor>): Actor => ({ kind: 'apiKey', accountId: 'a', keyId: 'k', plan: 'pro', scope: 'read-only', ...overrides });

describe('plan and scope checks', () => {
  it('requires a paid plan on the public API, not in the dashboard', () => {
    expect(authorize(actor({ plan: 'free' }), { scope: 'read' }, 'rest')?.appCode).toBe('PLAN_REQUIRED');
    expect(authorize(actor({ plan: 'free', kind: 'session', scope: 'read-write' }), { scope: 'read' }, 'rest')?.appCode).toBe('PLAN_REQUIRED');
    expect(authorize(actor({ plan: 'free' }), { scope: 'read' }, 'dashboard')).toBeNull();
    for (const plan of ['solo', 'pro', 'business', 'agency', 'enterprise'] as const) {
      expect(authorize(actor({ plan }), { scope: 'read' }, 'rest')).toBeNull();
    }
  });

  it('checks the plan before the scope', () => {
    expect(authorize(actor({ plan: 'free', scope: 'read-only' }), { scope: 'write' }, 'rest')?.appCode).toBe('PLAN_REQUIRED');
  });

  it('lets read-only keys read, and only read-write credentials write', () => {
    const denied = authorize(actor({ scope: 'read-only' }), { scope: 'write' }, 'rest');
    expect(denied?.appCode).toBe('INSUFFICIENT_SCOPE');
    expect(denied?.headers['WWW-Authenticate']).toBe(INSUFFICIENT_SCOPE_CHALLENGE);
    expect(authorize(actor({ scope: 'read-only' }), { scope: 'read' }, 'rest')).toBeNull();
    expect(authorize(actor({ scope: 'read-write' }), { scope: 'write' }, 'rest')).toBeNull();
    expect(authorize(actor({ kind: 'session', scope: 'read-write' }), { scope: 'write' }, 'rest')).toBeNull();
  });
});
