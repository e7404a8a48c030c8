import { describe, expect, it } from 'vitest';
import { browserOf, eventSentence, fieldChanges, fieldName } from './event-sentence';

const base = { actor: 'dana@example.com', actorType: 'user', target: null, before: null, after: null };

describe('the security log in words', () => {
  it('says a key’s restriction as a sentence with what changed, in human words', () => {
    expect(
      eventSentence({
        ...base,
        kind: 'api_key.restricted',
        target: { type: 'api_key', id: 'k', label: 'CI (svc_live_ab…wxyz)' },
        before: { appIds: null, allowedCidrs: [], monthlyBudget: null },
        after: { appIds: ['a', 'b'], allowedCidrs: [], monthlyBudget: 250 },
      }),
    ).toBe(
      'dana@example.com changed the restrictions of key “CI (svc_live_ab…wxyz)”: apps all apps → 2 apps, monthly credit budget no budget → 250',
    );
  });

  it('says who did what to whom, for members, plans and sessions', () => {
    const member = { type: 'user', id: 'u', label: 'sam@example.com' };
    expect(
      eventSentence({
        ...base,
        kind: 'member.role_changed',
        target: member,
        before: { role: 'analyst' },
        after: { role: 'developer' },
      }),
    ).toBe('dana@example.com made sam@example.com developer (was analyst)');
    expect(
      eventSentence({
        ...base,
        actor: 'Operator CLI',
        kind: 'plan.changed',
        before: { plan: 'pro' },
        after: { plan: 'business', reason: 'upgrade' },
      }),
    ).toBe('Operator CLI changed the plan from pro to business (upgrade)');
    expect(
      eventSentence({
        ...base,
        actor: 'Operator CLI',
        kind: 'session.ended',
        target: member,
        after: { sessionsEnded: 1 },
      }),
    ).toBe('Operator CLI ended 1 session of sam@example.com');
    expect(
      eventSentence({
        ...base,
        actor: 'Someone signing in',
        kind: 'session.sign_in_failed',
        target: member,
        after: { reason: 'wrong password' },
      }),
    ).toBe('A sign-in as sam@example.com failed: wrong password');
  });

  it('names fields for a reader and lists nested restrictions flat', () => {
    expect(fieldName('monthlyBudget')).toBe('monthly credit budget');
    expect(fieldName('someNewField')).toBe('some new field');
    expect(
      fieldChanges({
        before: null,
        after: { name: 'CI', expiresAt: null, restrictions: { appIds: null, monthlyBudget: 50 } },
      }),
    ).toEqual([
      { field: 'name', after: 'CI' },
      { field: 'expires', after: 'never' },
      { field: 'apps', after: 'all apps' },
      { field: 'monthly credit budget', after: '50' },
    ]);
  });

  it('names the browser and system, or the tool, of a user agent', () => {
    expect(
      browserOf(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 on Mac OS 10.15.7');
    expect(browserOf('curl/8.5.0')).toBe('curl 8.5');
    expect(browserOf(null)).toBeNull();
  });
});
