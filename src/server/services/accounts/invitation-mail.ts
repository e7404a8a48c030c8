// The invitation as mailed: who invites, to which account, with which role, and the link, which works once and expires.
import type { MemberRole } from '@/generated/prisma/enums';
import { ROLE_LABELS } from '@/server/services/access/roles';
import type { Mail } from '@/server/services/mail/mailer';

export function invitationMail(invitation: {
  to: string;
  accountName: string;
  inviter: string | null;
  role: MemberRole;
  link: string;
  expiresAt: Date;
}): Mail {
  const who = invitation.inviter ?? 'An owner of the account';
  return {
    to: invitation.to,
    subject: `${who} invited you to ${invitation.accountName} on ASO Analytics`,
    text: [
      `${who} invited you to join ${invitation.accountName} on ASO Analytics as ${ROLE_LABELS[invitation.role].toLowerCase()}.`,
      '',
      `Accept the invitation: ${invitation.link}`,
      '',
      `The link works once, for ${invitation.to} only, until ${invitation.expiresAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. If you did not expect it, ignore this mail.`,
    ].join('\n'),
  };
}
