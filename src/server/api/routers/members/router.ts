// Settings → Members, invitations and the account switcher.
import { router } from '@/server/api/trpc';
import {
  acceptInvitationProcedure,
  answerOwnershipProcedure,
  offerOwnershipProcedure,
  ownershipOfferProcedure,
  withdrawOwnershipOfferProcedure,
  changeMemberRoleProcedure,
  invitationStatusProcedure,
  joinByInvitationProcedure,
  inviteMemberProcedure,
  leaveAccountProcedure,
  listMembersProcedure,
  membershipsProcedure,
  removeMemberProcedure,
  revokeInvitationProcedure,
  switchAccountProcedure,
} from './members.procedures';

export const membersRouter = router({
  list: listMembersProcedure,
  invite: inviteMemberProcedure,
  revokeInvitation: revokeInvitationProcedure,
  changeRole: changeMemberRoleProcedure,
  remove: removeMemberProcedure,
  leave: leaveAccountProcedure,
  memberships: membershipsProcedure,
  switchAccount: switchAccountProcedure,
  invitation: invitationStatusProcedure,
  acceptInvitation: acceptInvitationProcedure,
  join: joinByInvitationProcedure,
  ownershipOffer: ownershipOfferProcedure,
  offerOwnership: offerOwnershipProcedure,
  withdrawOwnershipOffer: withdrawOwnershipOfferProcedure,
  answerOwnership: answerOwnershipProcedure,
});
