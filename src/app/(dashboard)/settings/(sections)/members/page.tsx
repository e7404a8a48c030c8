import { MembersPanel } from '@/components/members/members-panel';
import { getDashboardCaller, serverModules } from '@/app/server-modules';

export const metadata = { title: 'Members · ASO Analytics' };

export default async function MembersPage() {
  const { INVITABLE_ROLES, ROLE_LABELS, roleAllows, PLANS, INVITATION_DAYS } = await serverModules();
  const caller = await getDashboardCaller();
  const [account, { members, invitations }, offer] = await Promise.all([caller.account.get(), caller.members.list(), caller.members.ownershipOffer()]);
  const role = account.role ?? 'owner';
  const manages = roleAllows(role, 'members.manage');
  return (
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
  );
}
