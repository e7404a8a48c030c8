// The access policy's decisions that need no database: plan, scope, a key's apps and addresses, what the dashboard
// serves. Its rate, credits and idempotency run against PostgreSQL in the REST suites (pipeline, security matrix,
// fuzzer) and the MCP suites, through both channels.
import { describe, expect, it } from 'vitest';
import type { Actor } from '@/server/auth/actor';
import { LATEST_VERSION } from '@/server/domain/api-versions';
import { AppError } from '@/server/errors/app-error';
import { UNRESTRICTED } from '@/server/services/api-keys/restrictions';
import {
  admitClientAddress,
  appLookupOf,
  appsWithinReach,
  authorize,
  dashboardServes,
  reachApp,
  scopeAllows,
  settingsActor,
  type OperationAccess,
} from './access-policy';

const APP = '0b5f3c52-4d1e-4b8f-9d8e-2f3c4a5b6c7d';
const OTHER_APP = '7e6d5c4b-3a2f-4e1d-8c0b-9a8f7e6d5c4b';

function key(overrides: Partial<Actor> = {}): Actor {
  return {
    kind: 'apiKey',
    accountId: 'account',
    mode: 'live',
    liveAccountId: 'account',
    plan: 'pro',
    creditLimit: 10_000,
    trial: null,
    scope: 'read-write',
    keyId: 'key',
    restrictions: UNRESTRICTED,
    keySpent: 0,
    apiVersion: LATEST_VERSION,
    ...overrides,
  };
}

const session: Actor = {
  apiVersion: LATEST_VERSION,
  kind: 'session',
  accountId: 'account',
  mode: 'live',
  liveAccountId: 'account',
  plan: 'pro',
  creditLimit: 10_000,
  trial: null,
  scope: 'read-write',
  userId: 'user',
  sessionId: 'session',
};

function refusal(run: () => unknown): { code: string; detail: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { code: error.appCode, detail: error.message };
  }
}

const read: OperationAccess = { scope: 'read', credits: 1, appInput: 'id' };
const write: OperationAccess = { scope: 'write', credits: 2, appInput: 'id' };
const addApp: OperationAccess = { scope: 'write', credits: 2, addsApp: true };
const settings: OperationAccess = { scope: 'admin' };

describe('authorize: plan, then scope', () => {
  it('a plan without API access is refused first, whatever the scope', () => {
    expect(refusal(() => authorize(key({ plan: 'free', scope: 'read-only' }), write))?.code).toBe('PLAN_REQUIRED');
  });

  it('a read-only key reads, and is refused every write; scopeAllows agrees with authorize', () => {
    const readOnly = key({ scope: 'read-only' });
    for (const [access, allowed] of [
      [read, true],
      [write, false],
      [addApp, false],
      [settings, false],
    ] as const) {
      expect(refusal(() => authorize(readOnly, access))?.code ?? 'allowed').toBe(
        allowed ? 'allowed' : 'INSUFFICIENT_SCOPE',
      );
      expect(scopeAllows(readOnly, access)).toBe(allowed);
    }
  });

  it('no key manages keys or webhook endpoints; a session does', () => {
    expect(refusal(() => authorize(key(), settings))?.detail).toMatch(/API keys cannot manage keys/);
    expect(refusal(() => authorize(session, settings))).toBeNull();
    expect(refusal(() => settingsActor(key()))?.code).toBe('INSUFFICIENT_SCOPE');
    expect(refusal(() => settingsActor(null))?.code).toBe('UNAUTHORIZED');
    expect(settingsActor(session).userId).toBe('user');
  });

  it('a key restricted to some apps writes to them, but adds no app', () => {
    const restricted = key({ restrictions: { ...UNRESTRICTED, appIds: [APP] } });
    expect(refusal(() => authorize(restricted, write))).toBeNull();
    expect(refusal(() => authorize(restricted, addApp))?.detail).toMatch(
      /restricted to chosen apps and cannot add one/,
    );
    expect(scopeAllows(restricted, addApp)).toBe(false);
  });
});

describe('a key’s apps and addresses', () => {
  it('reaches the apps of its list only, by the input member the operation names, in any letter case', () => {
    const restricted = key({ restrictions: { ...UNRESTRICTED, appIds: [APP] } });
    expect(refusal(() => reachApp(restricted, read, { id: APP.toUpperCase() }))).toBeNull();
    expect(refusal(() => reachApp(restricted, read, { id: OTHER_APP }))?.code).toBe('NOT_FOUND');
    // An operation about no app (the list, usage) is not refused; the list is cut to the key's apps instead.
    expect(refusal(() => reachApp(restricted, { scope: 'read', credits: 1 }, {}))).toBeNull();
    expect(appsWithinReach(restricted, [{ id: APP }, { id: OTHER_APP }])).toEqual([{ id: APP }]);
    expect(appsWithinReach(key(), [{ id: APP }, { id: OTHER_APP }])).toHaveLength(2);
  });

  it('an app the credential’s statement found the account does not track is not found, before the operation runs', () => {
    const untracked = appLookupOf(APP, { app: null });
    expect(refusal(() => reachApp(key(), read, { id: APP }, untracked))).toEqual({
      code: 'NOT_FOUND',
      detail: 'No app with this id is tracked by your account.',
    });
    expect(refusal(() => reachApp(session, write, { id: APP }, untracked))?.code).toBe('NOT_FOUND');
    // A tracked app, an app other than the one looked up, or no lookup at all: the operation's own lookup decides.
    expect(refusal(() => reachApp(key(), read, { id: APP }, appLookupOf(APP, { app: '3' })))).toBeNull();
    expect(refusal(() => reachApp(key(), read, { id: OTHER_APP }, untracked))).toBeNull();
    expect(refusal(() => reachApp(key(), read, { id: APP }, appLookupOf(null, { app: null })))).toBeNull();
    expect(refusal(() => reachApp(key(), { scope: 'read', credits: 1 }, { id: APP }, untracked))).toBeNull();
  });

  it('calls from its ranges only; an unknown address is refused when it has ranges', () => {
    const ranged = key({ restrictions: { ...UNRESTRICTED, allowedCidrs: ['203.0.113.0/24'] } });
    expect(refusal(() => admitClientAddress(ranged, '203.0.113.9'))).toBeNull();
    expect(refusal(() => admitClientAddress(ranged, '198.51.100.1'))?.code).toBe('IP_NOT_ALLOWED');
    expect(refusal(() => admitClientAddress(ranged, null))?.code).toBe('IP_NOT_ALLOWED');
    expect(refusal(() => admitClientAddress(key(), null))).toBeNull();
  });
});

it('the dashboard serves every operation but the API-only ones', () => {
  expect(dashboardServes(read)).toBe(true);
  expect(dashboardServes(undefined)).toBe(true);
  expect(dashboardServes({ ...read, apiOnly: true })).toBe(false);
});
