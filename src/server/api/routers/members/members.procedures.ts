// Settings → Members and the account switcher: dashboard only. Who may do what is the access policy's (each
// procedure's permission); the account's own rules (seats, the last owner) are the members service's. In test mode
// they act on the live account: a sandbox has its live account's members.
import { z } from 'zod';
import { dashboardProcedure, publicProcedure } from '@/server/api/trpc';
import type { Actor } from '@/server/auth/actor';
import { pageOrigin } from '@/server/core/origin';
import { AppError } from '@/server/errors/app-error';
import { invitationMail } from '@/server/services/accounts/invitation-mail';
import {
  acceptInvitation,
  changeMemberRole,
  endMembership,
  invitationStatus,
  inviteMember,
  joinByInvitation,
  listMembers,
  membershipsOf,
  acceptOwnership,
  offerOwnership,
  ownershipOffer,
  withdrawOwnershipOffer,
  revokeInvitation,
  switchAccount,
} from '@/server/services/accounts/members';
import { sendMail } from '@/server/services/mail/mailer';
import { countSignUp } from '@/server/services/accounts/sign-up-limit';
import { MEMBER_ROLES } from '@/server/services/access/roles';
import {
  changeRoleInput,
  invitationIdInput,
  invitationOutput,
  invitationTokenInput,
  invitedOutput,
  inviteMemberInput,
  joinByInvitationInput,
  memberIdInput,
  memberOutput,
  membershipOutput,
  toInvitationOutput,
  toMemberOutput,
} from './members.schema';

/** The signed-in member acting, on the live account. */
function memberActing(actor: Actor) {
  if (!actor.userId || !actor.role) throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard.');
  return { accountId: actor.liveAccountId, userId: actor.userId, role: actor.role };
}

export const listMembersProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .output(z.object({ members: z.array(memberOutput), invitations: z.array(invitationOutput) }))
  .query(async ({ ctx }) => {
    const { members, invitations } = await listMembers(ctx.actor.liveAccountId, ctx.now);
    return { members: members.map(toMemberOutput), invitations: invitations.map(toInvitationOutput) };
  });

export const inviteMemberProcedure = dashboardProcedure
  .meta({ permission: 'members.manage' })
  .input(inviteMemberInput)
  .output(invitedOutput)
  .mutation(async ({ ctx, input }) => {
    const by = memberActing(ctx.actor);
    const { invitation, token, resent, accountName } = await inviteMember(by, input, ctx.now);
    const link = `${pageOrigin()}/invitations/${token}`;
    const mail = await sendMail(
      invitationMail({
        to: invitation.email,
        accountName,
        inviter: invitation.invitedBy,
        role: invitation.role,
        link,
        expiresAt: invitation.expiresAt,
      }),
    );
    return { invitation: toInvitationOutput(invitation), resent, mail, link: mail === 'sent' ? null : link };
  });

export const revokeInvitationProcedure = dashboardProcedure
  .meta({ permission: 'members.manage' })
  .input(invitationIdInput)
  .output(z.object({ revoked: z.literal(true) }))
  .mutation(({ ctx, input }) => revokeInvitation(memberActing(ctx.actor), input.invitationId, ctx.now));

export const changeMemberRoleProcedure = dashboardProcedure
  .meta({ permission: 'members.manage' })
  .input(changeRoleInput)
  .output(memberOutput)
  .mutation(async ({ ctx, input }) =>
    toMemberOutput(await changeMemberRole(memberActing(ctx.actor), input.userId, input.role)),
  );

export const removeMemberProcedure = dashboardProcedure
  .meta({ permission: 'members.manage' })
  .input(memberIdInput)
  .output(z.object({ removed: z.literal(true) }))
  .mutation(({ ctx, input }) => endMembership(memberActing(ctx.actor), input.userId));

export const leaveAccountProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .output(z.object({ removed: z.literal(true) }))
  .mutation(async ({ ctx }) => {
    const by = memberActing(ctx.actor);
    const left = await endMembership(by, by.userId);
    // The session goes on in another of the person's accounts, if they have one, rather than in none.
    const [next] = await membershipsOf(by.userId);
    if (next && ctx.actor.sessionId)
      await switchAccount({ sessionId: ctx.actor.sessionId, userId: by.userId }, next.accountId);
    return left;
  });

export const membershipsProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .output(z.array(membershipOutput))
  .query(async ({ ctx }) => {
    const current = ctx.actor.liveAccountId;
    return (await membershipsOf(ctx.userId)).map((membership) => ({
      ...membership,
      current: membership.accountId === current,
    }));
  });

export const switchAccountProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .input(z.object({ accountId: z.uuid('Must be a UUID.') }))
  .output(z.object({ accountId: z.uuid(), role: z.enum(MEMBER_ROLES) }))
  .mutation(({ ctx, input }) => {
    if (!ctx.actor.sessionId) throw new AppError('UNAUTHORIZED', 'Sign in to the dashboard.');
    return switchAccount({ sessionId: ctx.actor.sessionId, userId: ctx.userId }, input.accountId);
  });

const ownershipOfferOutput = z
  .object({ toUserId: z.uuid(), toEmail: z.string(), fromEmail: z.string().nullable() })
  .nullable();

/** The pending offer of the account's ownership, for the members page. */
export const ownershipOfferProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .output(ownershipOfferOutput)
  .query(({ ctx }) => ownershipOffer(ctx.actor.liveAccountId));

/** An owner offers the ownership to a member; it passes when they accept. */
export const offerOwnershipProcedure = dashboardProcedure
  .meta({ permission: 'ownership.manage' })
  .input(memberIdInput)
  .output(z.object({ offered: z.literal(true) }))
  .mutation(({ ctx, input }) => offerOwnership(memberActing(ctx.actor), input.userId));

export const withdrawOwnershipOfferProcedure = dashboardProcedure
  .meta({ permission: 'ownership.manage' })
  .output(z.object({ withdrawn: z.boolean() }))
  .mutation(({ ctx }) => withdrawOwnershipOffer(ctx.actor.liveAccountId));

/** The member the ownership was offered to takes it, or declines it. */
export const answerOwnershipProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .input(z.object({ accept: z.boolean() }))
  .output(z.object({ role: z.enum(MEMBER_ROLES) }))
  .mutation(async ({ ctx, input }) => {
    const by = memberActing(ctx.actor);
    const offer = await ownershipOffer(by.accountId);
    if (offer?.toUserId !== by.userId)
      throw new AppError('NOT_FOUND', 'No offer of this account’s ownership is pending for you.');
    if (input.accept) return acceptOwnership(by.accountId, by.userId);
    await withdrawOwnershipOffer(by.accountId);
    return { role: by.role };
  });

/** What an invitation link says, for its page: before anyone signs in. */
export const invitationStatusProcedure = publicProcedure
  .meta({ permission: 'account.read' })
  .input(invitationTokenInput)
  .query(async ({ ctx, input }) => {
    const status = await invitationStatus(input.token, ctx.now);
    return status.status === 'pending' ? { ...status, expiresAt: status.expiresAt.toISOString() } : status;
  });

/** A new person signs up from the link: their user joins the account, with no account of their own; they then sign in. */
export const joinByInvitationProcedure = publicProcedure
  .meta({ permission: 'account.read' })
  .input(joinByInvitationInput)
  .output(z.object({ accountId: z.uuid(), email: z.string() }))
  .mutation(async ({ ctx, input }) => {
    await countSignUp(ctx.clientIp);
    return joinByInvitation(input.token, { password: input.password, name: input.name }, ctx.now);
  });

/** The signed-in person accepts: they join, and their session acts for the account they joined. */
export const acceptInvitationProcedure = dashboardProcedure
  .meta({ permission: 'account.read' })
  .input(invitationTokenInput)
  .output(z.object({ accountId: z.uuid(), role: z.enum(MEMBER_ROLES) }))
  .mutation(async ({ ctx, input }) => {
    const joined = await acceptInvitation(input.token, ctx.userId, ctx.now);
    if (ctx.actor.sessionId)
      await switchAccount({ sessionId: ctx.actor.sessionId, userId: ctx.userId }, joined.accountId);
    return joined;
  });
