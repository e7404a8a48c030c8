// What each role may do, as the procedures enforce it: every procedure of the app router under the permission the
// access policy checks for it (permissionOf its meta), by its name. The members page shows this table, so that it
// cannot say a role may not do what it may (a developer resetting test data) or the reverse; role-table.test.ts fails
// when a permission's phrase names an operation another permission governs.
import type { AnyTRPCProcedure } from '@trpc/server';
import { permissionOf } from '@/server/services/access/access-policy';
import {
  MEMBER_ROLES,
  PERMISSIONS,
  roleAllows,
  type MemberRole,
  type Permission,
} from '@/server/services/access/roles';
import { appRouter } from './root';
import type { ProcedureMeta } from './trpc';

/** The names of the procedures the public API does not document (their REST twins' summaries name the others). */
const DASHBOARD_NAMES: Record<string, string> = {
  'account.signUp': 'Sign up',
  'account.get': 'See the account',
  'account.onboarding': 'See the first steps',
  'account.resetTestData': 'Reset test data',
  'apiKeys.restrict': 'Restrict an API key',
  'apiKeys.expiryPolicy': 'See the key expiry policy',
  'apiKeys.setExpiryPolicy': 'Require an expiry on every new key',
  'apiKeys.usage': 'See an API key’s usage',
  'apiKeys.calls': 'See an API key’s request log',
  'connectedApps.list': 'List connected apps',
  'connectedApps.revoke': 'Disconnect an app',
  'connectedApps.restrict': 'Restrict a connected app',
  'members.list': 'List members',
  'members.invite': 'Invite a member',
  'members.revokeInvitation': 'Withdraw an invitation',
  'members.changeRole': 'Change a member’s role',
  'members.remove': 'Remove a member',
  'members.leave': 'Leave the account',
  'members.memberships': 'List your accounts',
  'members.switchAccount': 'Switch accounts',
  'members.invitation': 'See an invitation',
  'members.acceptInvitation': 'Accept an invitation',
  'members.join': 'Join with an invitation',
  'members.ownershipOffer': 'See an ownership offer',
  'members.offerOwnership': 'Offer ownership',
  'members.withdrawOwnershipOffer': 'Withdraw an ownership offer',
  'members.answerOwnership': 'Answer an ownership offer',
  'apps.remove': 'Remove an app',
  'apps.addStorefront': 'Add a storefront',
  'apps.removeStorefront': 'Remove a storefront',
  'apps.searchStore': 'Search the store for an app',
  'apps.storefrontHealth': 'See storefront health',
  'billing.overview': 'See the plan and invoices',
  'billing.checkout': 'Subscribe to a plan',
  'billing.portal': 'Manage the subscription',
  'keywords.remove': 'Remove a keyword',
  'keywords.recentRanks': 'See recent ranks',
  'keywords.room': 'See the keywords left on the plan',
  'competitors.remove': 'Remove a competitor',
  'usage.ledger': 'See usage by day, endpoint and key',
  'webhooks.setEnabled': 'Enable or disable a webhook endpoint',
  'storeAccounts.list': 'List store accounts',
  'storeAccounts.connect': 'Connect a store account',
  'storeAccounts.remove': 'Remove a store account',
  'securityLog.list': 'Read the security log',
  'securityLog.export': 'Export the security log',
};

export interface RoleOperation {
  path: string;
  name: string;
  permission: Permission;
}

/** Every procedure, with its name and the permission it needs; a procedure without a name is named by its path. */
export function roleOperations(): RoleOperation[] {
  const operations: RoleOperation[] = [];
  const walk = (record: Record<string, unknown>, prefix: string[]) => {
    for (const [key, entry] of Object.entries(record)) {
      const path = [...prefix, key];
      if (typeof entry === 'function' && '_def' in entry && (entry as AnyTRPCProcedure)._def.procedure) {
        const meta = (entry as AnyTRPCProcedure)._def.meta as ProcedureMeta | undefined;
        const dotted = path.join('.');
        operations.push({
          path: dotted,
          name: meta?.openapi?.summary ?? DASHBOARD_NAMES[dotted] ?? dotted,
          permission: permissionOf(meta),
        });
      } else walk(entry as Record<string, unknown>, path);
    }
  };
  walk(appRouter._def.record as Record<string, unknown>, []);
  return operations;
}

export interface RoleTableRow {
  permission: Permission;
  /** What the permission lets a member do, as the refusal of it says too. */
  phrase: string;
  /** The operations it governs, by name. */
  operations: string[];
  allowedTo: MemberRole[];
}

/** One row per permission, in the order of PERMISSIONS. */
export function roleTable(): RoleTableRow[] {
  const operations = roleOperations();
  return (Object.keys(PERMISSIONS) as Permission[]).map((permission) => ({
    permission,
    phrase: PERMISSIONS[permission],
    operations: [
      ...new Set(operations.filter((operation) => operation.permission === permission).map(({ name }) => name)),
    ],
    allowedTo: MEMBER_ROLES.filter((role) => roleAllows(role, permission)),
  }));
}
