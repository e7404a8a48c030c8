// The roles of issue 40 as the members page and docs/api-decisions.md ("Teams") state them.
import { describe, expect, it } from 'vitest';
import { MEMBER_ROLES, PERMISSIONS, ROLE_PERMISSIONS, roleAllows, roleRefusal, type Permission } from './roles';

const ALL = Object.keys(PERMISSIONS) as Permission[];

describe('roles', () => {
  it('owner: everything', () => {
    expect(ALL.filter((permission) => !roleAllows('owner', permission))).toEqual([]);
  });

  it('admin: everything but ownership and billing', () => {
    expect(ALL.filter((permission) => !roleAllows('admin', permission))).toEqual([
      'billing.manage',
      'ownership.manage',
    ]);
  });

  it('developer: keys, webhook endpoints, apps and keywords, usage', () => {
    expect(ROLE_PERMISSIONS.developer).toEqual([
      'account.read',
      'data.read',
      'data.write',
      'usage.read',
      'keys.manage',
      'webhooks.manage',
    ]);
  });

  it('analyst: reads the data and usage; no keys, no webhooks', () => {
    expect(ROLE_PERMISSIONS.analyst).toEqual(['account.read', 'data.read', 'usage.read']);
  });

  it('billing: plan, invoices and usage only', () => {
    expect(ROLE_PERMISSIONS.billing).toEqual(['account.read', 'usage.read', 'billing.manage']);
  });

  it('every role sees the account it is in, and only the owner transfers it', () => {
    for (const role of MEMBER_ROLES) expect(roleAllows(role, 'account.read'), role).toBe(true);
    expect(MEMBER_ROLES.filter((role) => roleAllows(role, 'ownership.manage'))).toEqual(['owner']);
  });

  it('a refusal names the role, what it cannot do and whom to ask', () => {
    expect(roleRefusal('analyst', 'keys.manage')).toBe(
      'Your role in this account, analyst, does not let you manage API keys and connected apps; ask an owner or an admin of the account.',
    );
    expect(roleRefusal('admin', 'billing.manage')).toBe(
      'Your role in this account, admin, does not let you change the plan and read invoices; ask an owner of the account.',
    );
  });

  it('no role: nothing at all (a screen that found none fails closed)', () => {
    expect(ALL.filter((permission) => roleAllows(undefined, permission) || roleAllows(null, permission))).toEqual([]);
  });
});
