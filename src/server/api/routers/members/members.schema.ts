// Settings → Members: the account's members, its pending invitations, and the account switcher's list.
import { z } from 'zod';
import { emailAddress } from '@/server/domain/email-addresses';
import { newAccountInput } from '@/server/api/routers/account/account.schema';
import { MEMBER_ROLES } from '@/server/services/access/roles';
import { INVITABLE_ROLES } from '@/server/services/accounts/members';

const role = z.enum(MEMBER_ROLES);
const invitableRole = z.enum(
  INVITABLE_ROLES,
  `Must be one of ${INVITABLE_ROLES.join(', ')}: ownership passes by transfer.`,
);

export const memberOutput = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role,
  joinedAt: z.string(),
});
export const invitationOutput = z.object({
  id: z.uuid(),
  email: z.string(),
  role,
  createdAt: z.string(),
  expiresAt: z.string(),
  invitedBy: z.string().nullable(),
});

export const inviteMemberInput = z.object({ email: emailAddress, role: invitableRole });
export const invitedOutput = z.object({
  invitation: invitationOutput,
  resent: z.boolean(),
  /** Whether the invitation was mailed: `not-configured` without SMTP_URL, `failed` when the server refused it. */
  mail: z.enum(['sent', 'not-configured', 'failed']),
  /** The link to pass on by hand when it was not mailed; null once it was (it is never shown twice). */
  link: z.string().nullable(),
});

export const invitationIdInput = z.object({ invitationId: z.uuid('Must be a UUID.') });
export const memberIdInput = z.object({ userId: z.uuid('Must be a UUID.') });
export const changeRoleInput = memberIdInput.extend({ role: invitableRole });
export const invitationTokenInput = z.object({ token: z.string().min(1).max(200) });
export const joinByInvitationInput = invitationTokenInput.extend({
  password: newAccountInput.shape.password,
  name: newAccountInput.shape.userName,
});

export const membershipOutput = z.object({ accountId: z.uuid(), accountName: z.string(), role, current: z.boolean() });

export function toMemberOutput(member: {
  userId: string;
  email: string;
  name: string | null;
  role: z.infer<typeof role>;
  joinedAt: Date;
}) {
  return { ...member, joinedAt: member.joinedAt.toISOString() };
}

export function toInvitationOutput(invitation: {
  id: string;
  email: string;
  role: z.infer<typeof role>;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: string | null;
}) {
  return {
    ...invitation,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}
