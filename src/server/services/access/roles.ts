// Members' roles and what each may do (docs/api-decisions.md, "Teams"). An operation declares the permission it needs
// (its procedure's meta, OperationAccess.permission, or the one its scope implies); the access policy checks a
// member's role against this table, for the dashboard, the REST settings endpoints and a session token's every call
// alike. API keys and connected apps have no role: their scope and restrictions govern them.
import type { MemberRole } from '@/generated/prisma/enums';

export type { MemberRole };

/** Strongest first: the order the members page lists them in. */
export const MEMBER_ROLES = [
  'owner',
  'admin',
  'developer',
  'analyst',
  'billing',
] as const satisfies readonly MemberRole[];

export const PERMISSIONS = {
  'account.read': 'see the account',
  'data.read': 'read the apps, keywords and reports',
  'data.write': 'add and remove apps, storefronts, keywords and competitors, and reset the test data',
  'usage.read': 'read the credit usage',
  'keys.manage': 'manage API keys and connected apps',
  'webhooks.manage': 'manage webhook endpoints',
  'store-accounts.manage': 'connect and remove store accounts',
  'replies.approve': 'approve replies to reviews, which sends them to the store',
  'security-log.read': 'read the security log',
  'account.manage': 'change the account’s settings: whether new keys must expire',
  'members.manage': 'invite and remove members and change their roles',
  'billing.manage': 'change the plan and read invoices',
  'ownership.manage': 'transfer the account’s ownership or delete the account',
} as const;

export type Permission = keyof typeof PERMISSIONS;

const ALL = Object.keys(PERMISSIONS) as Permission[];

export const ROLE_PERMISSIONS: Record<MemberRole, readonly Permission[]> = {
  owner: ALL,
  admin: ALL.filter((permission) => permission !== 'billing.manage' && permission !== 'ownership.manage'),
  developer: ['account.read', 'data.read', 'data.write', 'usage.read', 'keys.manage', 'webhooks.manage'],
  analyst: ['account.read', 'data.read', 'usage.read'],
  billing: ['account.read', 'usage.read', 'billing.manage'],
};

export const ROLE_LABELS: Record<MemberRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  analyst: 'Analyst',
  billing: 'Billing',
};

/**
 * Whether a role allows a permission. No role allows nothing: a signed-in member always has one, and a screen that
 * found none must not guess one (it fails closed; src/app/roles-fail-closed.test.ts).
 */
export function roleAllows(role: MemberRole | null | undefined, permission: Permission): boolean {
  return role != null && ROLE_PERMISSIONS[role].includes(permission);
}

/** Why a member is refused an operation, in the words the problem's detail uses. */
export function roleRefusal(role: MemberRole, permission: Permission): string {
  const who = ROLE_PERMISSIONS.admin.includes(permission) ? 'an owner or an admin' : 'an owner';
  return `Your role in this account, ${ROLE_LABELS[role].toLowerCase()}, does not let you ${PERMISSIONS[permission]}; ask ${who} of the account.`;
}
