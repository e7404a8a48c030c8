// An account's members and invitations (issue 40; docs/api-decisions.md, "Teams"). Who may call each of these is the
// access policy's (members.manage, through the procedures); what this module holds is the account's own rules: its
// seats under concurrent invitations and acceptances (counted under the account's row lock, as the other caps),
// at least one owner at all times, and an invitation that only its address can accept, once, before it expires.
import { createHash, randomBytes } from 'node:crypto';
import type { MemberRole } from '@/generated/prisma/enums';
import { db } from '@/server/db';
import { lockAccountPlan } from '@/server/db/row-locks';
import { AppError, limitReached } from '@/server/errors/app-error';
import { validationError } from '@/server/errors/validation';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { planInForce } from './plans';
import { Prisma } from '@/generated/prisma/client';
import { hashPassword } from './password';

/** How long an invitation link works; resending it starts the time again. */
export const INVITATION_DAYS = 7;

/** The roles an invitation or a role change may give: ownership passes by transfer only. */
export const INVITABLE_ROLES = ['admin', 'developer', 'analyst', 'billing'] as const satisfies readonly MemberRole[];
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  role: MemberRole;
  joinedAt: Date;
}

export interface InvitationView {
  id: string;
  email: string;
  role: MemberRole;
  createdAt: Date;
  expiresAt: Date;
  invitedBy: string | null;
}

/** Who acts: a member of the account (the procedures have checked that their role may). */
export interface MemberActor {
  accountId: string;
  userId: string;
}

const tokenHashOf = (token: string) => createHash('sha256').update(token).digest();

const pending = (now: Date): Prisma.InvitationWhereInput => ({
  acceptedAt: null,
  revokedAt: null,
  expiresAt: { gt: now },
});

export async function listMembers(
  accountId: string,
  now = new Date(),
): Promise<{ members: MemberView[]; invitations: InvitationView[] }> {
  const [members, invitations] = await Promise.all([
    db.membership.findMany({
      where: { accountId },
      include: { user: { select: { email: true, name: true } } },
      orderBy: { createdAt: 'asc' },
    }),
    db.invitation.findMany({
      where: { accountId, ...pending(now) },
      include: { invitedBy: { select: { email: true } } },
      orderBy: { createdAt: 'asc' },
    }),
  ]);
  return {
    members: members.map((member) => ({
      userId: member.userId,
      email: member.user.email,
      name: member.user.name,
      role: member.role,
      joinedAt: member.createdAt,
    })),
    invitations: invitations.map((invitation) => ({
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
      invitedBy: invitation.invitedBy?.email ?? null,
    })),
  };
}

/** The account's row locked until the transaction ends: what counts its seats, and its owners, holds meanwhile. */
async function lockAccount(tx: Prisma.TransactionClient, accountId: string) {
  const account = await lockAccountPlan(tx, accountId);
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  return account;
}

/**
 * The account's seats against its members and pending invitations (its row locked: lockAccount), with `adding` more
 * invitations: a refusal says what fills them.
 */
async function assertSeats(
  tx: Prisma.TransactionClient,
  accountId: string,
  account: Awaited<ReturnType<typeof lockAccount>>,
  adding: number,
  now: Date,
): Promise<void> {
  const plan = planInForce(account, now);
  const seats = plan.caps.seats;
  if (seats === null) return;
  const [members, invitations] = await Promise.all([
    tx.membership.count({ where: { accountId } }),
    tx.invitation.count({ where: { accountId, ...pending(now) } }),
  ]);
  if (members + invitations + adding > seats) {
    throw limitReached(
      'seats',
      seats,
      `The ${plan.label} plan has ${seats} ${seats === 1 ? 'seat' : 'seats'}, and this account has ${members} ${members === 1 ? 'member' : 'members'} and ${invitations} pending ${invitations === 1 ? 'invitation' : 'invitations'}. Withdraw an invitation, remove a member, or choose a larger plan.`,
    );
  }
}

/**
 * Invites an address with a role. A pending invitation of the same address is sent again instead (a new link, the
 * old one no longer works). Returns the link's token: only its SHA-256 is stored.
 */
export async function inviteMember(
  by: MemberActor,
  input: { email: string; role: InvitableRole },
  now = new Date(),
): Promise<{ invitation: InvitationView; token: string; resent: boolean; accountName: string }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  const result = await db.$transaction(async (tx) => {
    const account = await lockAccount(tx, by.accountId);
    const member = await tx.membership.findFirst({
      where: { accountId: by.accountId, user: { email: input.email } },
      select: { userId: true },
    });
    if (member)
      throw validationError([
        { in: 'body', pointer: '#/email', detail: `${input.email} is already a member of this account.` },
      ]);
    const existing = await tx.invitation.findFirst({
      where: { accountId: by.accountId, email: input.email, acceptedAt: null, revokedAt: null },
    });
    // An expired invitation of the address is replaced as a pending one is: it needs its seat again.
    if (!existing || existing.expiresAt <= now) await assertSeats(tx, by.accountId, account, 1, now);
    const data = { role: input.role, tokenHash: tokenHashOf(token), invitedById: by.userId, createdAt: now, expiresAt };
    const invitation = existing
      ? await tx.invitation.update({ where: { id: existing.id }, data })
      : await tx.invitation.create({ data: { ...data, accountId: by.accountId, email: input.email } });
    await recordSecurityEvent(
      {
        accountId: by.accountId,
        kind: 'member.invited',
        target: { type: 'invitation', id: invitation.id, label: input.email },
        after: { role: input.role, resent: Boolean(existing) },
      },
      tx,
    );
    return { invitation, resent: Boolean(existing) };
  });
  const [inviter, account] = await Promise.all([
    db.user.findUnique({ where: { id: by.userId }, select: { email: true } }),
    db.account.findUniqueOrThrow({ where: { id: by.accountId }, select: { name: true } }),
  ]);
  const { invitation } = result;
  return {
    accountName: account.name,
    invitation: {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      createdAt: invitation.createdAt,
      expiresAt: invitation.expiresAt,
      invitedBy: inviter?.email ?? null,
    },
    token,
    resent: result.resent,
  };
}

export async function revokeInvitation(
  by: MemberActor,
  invitationId: string,
  now = new Date(),
): Promise<{ revoked: true }> {
  const invitation = await db.invitation.findFirst({
    where: { id: invitationId, accountId: by.accountId, acceptedAt: null, revokedAt: null },
  });
  if (!invitation) throw new AppError('NOT_FOUND', 'No pending invitation with this id.');
  await db.$transaction(async (tx) => {
    // Still pending when written: an acceptance or a withdrawal that got there first is not overwritten (404).
    const { count } = await tx.invitation.updateMany({
      where: { id: invitation.id, acceptedAt: null, revokedAt: null },
      data: { revokedAt: now },
    });
    if (!count) throw new AppError('NOT_FOUND', 'No pending invitation with this id.');
    await recordSecurityEvent(
      {
        accountId: by.accountId,
        kind: 'member.invitation_revoked',
        target: { type: 'invitation', id: invitation.id, label: invitation.email },
        before: { role: invitation.role },
      },
      tx,
    );
  });
  return { revoked: true };
}

/** What an invitation link says before anyone accepts it: for its page. Never throws on a bad link: it says why. */
export type InvitationStatus =
  | { status: 'pending'; accountName: string; email: string; role: MemberRole; expiresAt: Date }
  | { status: 'unknown' | 'revoked' | 'accepted' | 'expired' };

export async function invitationStatus(token: string, now = new Date()): Promise<InvitationStatus> {
  const invitation = await db.invitation.findUnique({
    where: { tokenHash: tokenHashOf(token) },
    include: { account: { select: { name: true } } },
  });
  if (!invitation) return { status: 'unknown' };
  if (invitation.revokedAt) return { status: 'revoked' };
  if (invitation.acceptedAt) return { status: 'accepted' };
  if (invitation.expiresAt <= now) return { status: 'expired' };
  return {
    status: 'pending',
    accountName: invitation.account.name,
    email: invitation.email,
    role: invitation.role,
    expiresAt: invitation.expiresAt,
  };
}

export const INVITATION_REFUSALS: Record<Exclude<InvitationStatus['status'], 'pending'>, string> = {
  unknown: 'This invitation link is not valid. Check that it was copied whole, or ask for a new invitation.',
  revoked: 'This invitation was withdrawn by the account. Ask its owner or an admin for a new one.',
  accepted: 'This invitation has already been used: each link works once. Sign in to reach the account.',
  expired: `This invitation has expired (a link works for ${INVITATION_DAYS} days). Ask the account’s owner or an admin to send it again.`,
};

/**
 * The signed-in user `userId` accepts the invitation whose link carries `token`: they join its account with its role.
 * Only a user of the invited address may, once, before it expires; the account's seats are counted again under its
 * lock (the plan may have changed since).
 */
/**
 * The pending invitation of a link, its account's row locked first and the invitation read again under it (two
 * acceptances of one link are in turn): a link that no longer works says why.
 */
async function pendingInvitationUnderLock(tx: Prisma.TransactionClient, token: string, now: Date) {
  const found = await tx.invitation.findUnique({
    where: { tokenHash: tokenHashOf(token) },
    select: { id: true, accountId: true },
  });
  if (!found) throw new AppError('NOT_FOUND', INVITATION_REFUSALS.unknown);
  const account = await lockAccount(tx, found.accountId);
  const invitation = await tx.invitation.findUniqueOrThrow({ where: { id: found.id } });
  if (invitation.revokedAt) throw new AppError('NOT_FOUND', INVITATION_REFUSALS.revoked);
  if (invitation.acceptedAt) throw new AppError('NOT_FOUND', INVITATION_REFUSALS.accepted);
  if (invitation.expiresAt <= now) throw new AppError('NOT_FOUND', INVITATION_REFUSALS.expired);
  return { account, invitation };
}

/** The invitation accepted by `userId`: they are a member from now on, with its role. */
async function join(
  tx: Prisma.TransactionClient,
  invitation: { id: string; accountId: string; role: MemberRole; invitedById: string | null },
  user: { id: string; email: string },
  now: Date,
) {
  await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: now, acceptedById: user.id } });
  await tx.membership.create({
    data: {
      accountId: invitation.accountId,
      userId: user.id,
      role: invitation.role,
      invitedById: invitation.invitedById,
      createdAt: now,
    },
  });
  await recordSecurityEvent(
    {
      accountId: invitation.accountId,
      kind: 'member.joined',
      actor: { type: 'user', userId: user.id, label: user.email },
      target: { type: 'user', id: user.id, label: user.email },
      after: { role: invitation.role },
    },
    tx,
  );
}

export async function acceptInvitation(
  token: string,
  userId: string,
  now = new Date(),
): Promise<{ accountId: string; role: MemberRole }> {
  return db.$transaction(async (tx) => {
    const { account, invitation } = await pendingInvitationUnderLock(tx, token, now);
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true, accountId: true } });
    if (user.email !== invitation.email) {
      throw new AppError(
        'INSUFFICIENT_SCOPE',
        `This invitation is for ${invitation.email}; you are signed in as ${user.email}. Sign in as ${invitation.email} to accept it.`,
      );
    }
    const member = await tx.membership.findUnique({
      where: { accountId_userId: { accountId: invitation.accountId, userId } },
    });
    if (member)
      throw validationError([{ in: 'body', pointer: '#/token', detail: 'You are already a member of this account.' }]);
    // Its own seat is among those counted: the plan may have shrunk since it was sent.
    await assertSeats(tx, invitation.accountId, account, 0, now);
    await join(tx, invitation, { id: userId, email: user.email }, now);
    // A person who belonged to no account acts for this one from now on; another keeps acting for theirs.
    if (!user.accountId) await tx.user.update({ where: { id: userId }, data: { accountId: invitation.accountId } });
    return { accountId: invitation.accountId, role: invitation.role };
  });
}

/**
 * A new person signs up from the link: a user of the invited address, member of the inviting account only (no account
 * of their own), in one transaction with the acceptance. They then sign in with the password they chose.
 */
export async function joinByInvitation(
  token: string,
  input: { password: string; name?: string },
  now = new Date(),
): Promise<{ accountId: string; email: string }> {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const { account, invitation } = await pendingInvitationUnderLock(tx, token, now);
      await assertSeats(tx, invitation.accountId, account, 0, now);
      const user = await tx.user.create({
        data: {
          email: invitation.email,
          name: input.name ?? null,
          passwordHash,
          accountId: invitation.accountId,
          createdAt: now,
        },
        select: { id: true, email: true },
      });
      await join(tx, invitation, user, now);
      return { accountId: invitation.accountId, email: user.email };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw validationError([
        {
          in: 'body',
          pointer: '#/token',
          detail: 'This address already has a user: sign in, then accept the invitation.',
        },
      ]);
    }
    throw error;
  }
}

/** The account's owners, its row locked: the last one may not leave, be removed or demoted. */
async function ownersUnderLock(tx: Prisma.TransactionClient, accountId: string): Promise<string[]> {
  await lockAccount(tx, accountId);
  return (await tx.membership.findMany({ where: { accountId, role: 'owner' }, select: { userId: true } })).map(
    (owner) => owner.userId,
  );
}

async function memberOf(tx: Prisma.TransactionClient, accountId: string, userId: string) {
  const member = await tx.membership.findUnique({
    where: { accountId_userId: { accountId, userId } },
    include: { user: { select: { email: true, accountId: true } } },
  });
  if (!member) throw new AppError('NOT_FOUND', 'No member with this id in this account.');
  return member;
}

/** An admin changes no owner, and makes none: ownership is the owners' to give. */
function assertMayChange(byRole: MemberRole, target: MemberRole): void {
  if (target === 'owner' && byRole !== 'owner')
    throw new AppError('INSUFFICIENT_SCOPE', 'Only an owner may change or remove an owner of the account.');
}

export async function changeMemberRole(
  by: MemberActor & { role: MemberRole },
  userId: string,
  role: InvitableRole,
): Promise<MemberView> {
  return db.$transaction(async (tx) => {
    const owners = await ownersUnderLock(tx, by.accountId);
    const member = await memberOf(tx, by.accountId, userId);
    assertMayChange(by.role, member.role);
    if (member.role === 'owner' && owners.length === 1)
      throw validationError([
        { in: 'body', pointer: '#/role', detail: 'The account’s last owner keeps the role: transfer ownership first.' },
      ]);
    const changed = await tx.membership.update({
      where: { accountId_userId: { accountId: by.accountId, userId } },
      data: { role },
    });
    if (member.role !== role) {
      await recordSecurityEvent(
        {
          accountId: by.accountId,
          kind: 'member.role_changed',
          target: { type: 'user', id: userId, label: member.user.email },
          before: { role: member.role },
          after: { role },
        },
        tx,
      );
    }
    return { userId, email: member.user.email, name: null, role: changed.role, joinedAt: changed.createdAt };
  });
}

/**
 * Ends a membership: removed by an owner or an admin, or left by the member. Their sessions acting for the account are
 * refused from their next request (the session's statement joins the membership). Keys and webhook endpoints they
 * made stay the account's.
 */
export async function endMembership(
  by: MemberActor & { role: MemberRole },
  userId: string,
): Promise<{ removed: true }> {
  const leaving = by.userId === userId;
  await db.$transaction(async (tx) => {
    const owners = await ownersUnderLock(tx, by.accountId);
    const member = await memberOf(tx, by.accountId, userId);
    if (!leaving) assertMayChange(by.role, member.role);
    if (member.role === 'owner' && owners.length === 1) {
      throw validationError([
        {
          in: 'body',
          pointer: '#/userId',
          detail: 'The account’s last owner cannot leave or be removed: transfer ownership first.',
        },
      ]);
    }
    await tx.membership.delete({ where: { accountId_userId: { accountId: by.accountId, userId } } });
    // A person acting for this account by default acts for another of theirs next time, or for none.
    if (member.user.accountId === by.accountId) {
      const next = await tx.membership.findFirst({
        where: { userId },
        orderBy: { createdAt: 'asc' },
        select: { accountId: true },
      });
      await tx.user.update({ where: { id: userId }, data: { accountId: next?.accountId ?? null } });
    }
    await recordSecurityEvent(
      {
        accountId: by.accountId,
        kind: leaving ? 'member.left' : 'member.removed',
        target: { type: 'user', id: userId, label: member.user.email },
        before: { role: member.role },
      },
      tx,
    );
  });
  return { removed: true };
}

/** The accounts a person belongs to, for the account switcher: their role in each. */
export async function membershipsOf(
  userId: string,
): Promise<{ accountId: string; accountName: string; role: MemberRole }[]> {
  const memberships = await db.membership.findMany({
    where: { userId },
    include: { account: { select: { name: true } } },
    orderBy: { createdAt: 'asc' },
  });
  return memberships.map((membership) => ({
    accountId: membership.accountId,
    accountName: membership.account.name,
    role: membership.role,
  }));
}

/**
 * The session acts for another of its user's accounts from its next request, without signing in again; a new
 * sign-in acts for it too. Not a member of it: 404, as any account not theirs.
 */
export async function switchAccount(
  session: { sessionId: string; userId: string },
  accountId: string,
): Promise<{ accountId: string; role: MemberRole }> {
  return db.$transaction(async (tx) => {
    const member = await tx.membership.findUnique({
      where: { accountId_userId: { accountId, userId: session.userId } },
      select: { role: true },
    });
    if (!member) throw new AppError('NOT_FOUND', 'You are not a member of this account.');
    const switched = await tx.session.updateMany({
      where: { id: session.sessionId, userId: session.userId, endedAt: null },
      data: { accountId },
    });
    if (!switched.count) throw new AppError('UNAUTHORIZED', 'This session has ended: sign in again.');
    await tx.user.update({ where: { id: session.userId }, data: { accountId } });
    return { accountId, role: member.role };
  });
}

/**
 * An owner offers the account's ownership to another member. Nothing changes until they accept it
 * (acceptOwnership); an offer made again replaces the pending one, and the owner may withdraw it.
 */
export async function offerOwnership(by: MemberActor, userId: string): Promise<{ offered: true }> {
  if (by.userId === userId)
    throw validationError([
      { in: 'body', pointer: '#/userId', detail: 'You are an owner already: offer the ownership to another member.' },
    ]);
  await db.$transaction(async (tx) => {
    await lockAccount(tx, by.accountId);
    const member = await memberOf(tx, by.accountId, userId);
    if (member.role === 'owner')
      throw validationError([{ in: 'body', pointer: '#/userId', detail: `${member.user.email} is an owner already.` }]);
    await tx.membership.updateMany({
      where: { accountId: by.accountId, ownershipOfferedById: { not: null } },
      data: { ownershipOfferedById: null },
    });
    await tx.membership.update({
      where: { accountId_userId: { accountId: by.accountId, userId } },
      data: { ownershipOfferedById: by.userId },
    });
    await recordSecurityEvent(
      {
        accountId: by.accountId,
        kind: 'ownership.offered',
        target: { type: 'user', id: userId, label: member.user.email },
      },
      tx,
    );
  });
  return { offered: true };
}

/** The pending offer of the account's ownership, if any: to whom, and from whom. */
export async function ownershipOffer(
  accountId: string,
): Promise<{ toUserId: string; toEmail: string; fromEmail: string | null } | null> {
  const offer = await db.membership.findFirst({
    where: { accountId, ownershipOfferedById: { not: null } },
    include: { user: { select: { email: true } }, ownershipOfferedBy: { select: { email: true } } },
  });
  return offer
    ? { toUserId: offer.userId, toEmail: offer.user.email, fromEmail: offer.ownershipOfferedBy?.email ?? null }
    : null;
}

/** The offer withdrawn by an owner, or declined by the member it was made to. */
export async function withdrawOwnershipOffer(accountId: string): Promise<{ withdrawn: boolean }> {
  const { count } = await db.membership.updateMany({
    where: { accountId, ownershipOfferedById: { not: null } },
    data: { ownershipOfferedById: null },
  });
  return { withdrawn: count > 0 };
}

/**
 * The member `userId` accepts the ownership offered to them: they become an owner, and the owner who offered it an
 * admin (if they are still an owner: otherwise the offer lapsed with their role).
 */
export async function acceptOwnership(accountId: string, userId: string): Promise<{ role: 'owner' }> {
  await db.$transaction(async (tx) => {
    await lockAccount(tx, accountId);
    const member = await memberOf(tx, accountId, userId);
    const from = member.ownershipOfferedById;
    const offering = from
      ? await tx.membership.findUnique({
          where: { accountId_userId: { accountId, userId: from } },
          select: { role: true },
        })
      : null;
    if (!from || offering?.role !== 'owner')
      throw new AppError('NOT_FOUND', 'No offer of this account’s ownership is pending for you.');
    await tx.membership.update({
      where: { accountId_userId: { accountId, userId } },
      data: { role: 'owner', ownershipOfferedById: null },
    });
    await tx.membership.update({ where: { accountId_userId: { accountId, userId: from } }, data: { role: 'admin' } });
    await recordSecurityEvent(
      {
        accountId,
        kind: 'ownership.transferred',
        actor: { type: 'user', userId, label: member.user.email },
        target: { type: 'user', id: userId, label: member.user.email },
        before: { role: member.role },
        after: { role: 'owner' },
      },
      tx,
    );
  });
  return { role: 'owner' };
}
