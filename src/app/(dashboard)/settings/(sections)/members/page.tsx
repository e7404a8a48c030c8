import { MembersPanel } from '@/components/members/members-panel';
import { RolePermissionsTable } from '@/components/members/role-permissions-table';
import { getDashboardCaller, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Members · ASO Analytics' };

export default async function MembersPage({ searchParams }: { searchParams: Promise<{ denied?: string }> }) {
  const { INVITABLE_ROLES, MEMBER_ROLES, ROLE_LABELS, roleAllows, roleTable, PLANS, INVITATION_DAYS, PERMISSIONS } =
    await serverModules();
  const { denied } = await searchParams;
  const caller = await getDashboardCaller();
  const [account, { members, invitations }, offer] = await Promise.all([
    caller.account.get(),
    caller.members.list(),
    caller.members.ownershipOffer(),
  ]);
  const { role } = account;
  const manages = roleAllows(role, 'members.manage');
  // A page the role cannot use sent the member here (requirePermission): say why.
  const refusedTo = denied && denied in PERMISSIONS ? PERMISSIONS[denied as keyof typeof PERMISSIONS] : null;
  return (
    <>
      {refusedTo && (
        <p className="notice" role="status" data-testid="role-denied">
          Your role in this account, {role ? ROLE_LABELS[role].toLowerCase() : 'none'}, does not let you {refusedTo}:
          that page is not yours to open. An owner or an admin can change your role.
        </p>
      )}
      <MembersPanel
        members={members}
        invitations={manages ? invitations : []}
        manages={manages}
        isOwner={role === 'owner'}
        me={account.userId}
        offer={offer}
        roles={INVITABLE_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
        roleLabels={ROLE_LABELS}
        seats={PLANS[account.plan.tier].caps.seats}
        invitationDays={INVITATION_DAYS}
      />
      <RolePermissionsTable
        roles={MEMBER_ROLES.map((value) => ({ value, label: ROLE_LABELS[value] }))}
        permissions={roleTable().map(({ phrase, operations, allowedTo }) => ({
          label: phrase.charAt(0).toUpperCase() + phrase.slice(1),
          operations,
          allowedTo,
        }))}
      />
    </>
  );
}
