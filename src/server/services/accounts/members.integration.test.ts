// An account's members and invitations (issue 40): seats that hold under concurrent invitations and acceptances, an
// invitation only its address accepts, once, before it expires; the last owner stays; each change in the security log.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { handleDashboardTrpcRequest } from '@/server/dashboard/trpc-endpoint';
import { db } from '@/server/db';
import { resolveBearer } from '@/server/auth/credentials';
import { issueSessionToken } from '@/server/auth/session-token';
import { listSecurityEvents } from '@/server/services/security-log/security-log';
import { duringChange } from '../../../../test/concurrent-change';
import { makeAccount, makeMember } from '../../../../test/factories';
import { startMailCatcher, type CaughtMail } from '../../../../test/mail-catcher';
import {
  acceptInvitation,
  acceptOwnership,
  changeMemberRole,
  endMembership,
  INVITATION_DAYS,
  INVITATION_REFUSALS,
  invitationStatus,
  inviteMember,
  listMembers,
  offerOwnership,
  ownershipOffer,
  revokeInvitation,
  withdrawOwnershipOffer,
} from './members';

const ownerOf = async (plan: Parameters<typeof makeAccount>[0] = 'pro') => {
  const owner = await makeAccount(plan);
  return { ...owner, role: 'owner' as const };
};

describe('invitations', () => {
  it('an invited person accepts from the link, joins with the role, and acts for the account with a session switched to it', async () => {
    const owner = await ownerOf();
    const person = await makeAccount('free');
    const { token, invitation } = await inviteMember(owner, { email: person.email, role: 'developer' });
    expect(invitation).toMatchObject({ email: person.email, role: 'developer', invitedBy: owner.email });
    expect(await invitationStatus(token)).toMatchObject({ status: 'pending', role: 'developer', email: person.email });
    expect(await acceptInvitation(token, person.userId)).toEqual({ accountId: owner.accountId, role: 'developer' });
    expect((await listMembers(owner.accountId)).members.map((member) => [member.email, member.role])).toEqual([
      [owner.email, 'owner'],
      [person.email, 'developer'],
    ]);
    // Their own account is still the one a new sign-in acts for.
    expect((await db.user.findUniqueOrThrow({ where: { id: person.userId } })).accountId).toBe(person.accountId);
    const session = await issueSessionToken({ id: person.userId, email: person.email, accountId: owner.accountId });
    expect(await resolveBearer(`Bearer ${session}`, { now: new Date(), ip: null })).toMatchObject({
      status: 'valid',
      actor: { accountId: owner.accountId, role: 'developer' },
    });
  });

  it('is accepted once, by its address only, before it expires, and never once withdrawn: each says why', async () => {
    const owner = await ownerOf('business');
    const invited = await makeAccount('free');
    const other = await makeAccount('free');
    const { token } = await inviteMember(owner, { email: invited.email, role: 'analyst' });
    await expect(acceptInvitation(token, other.userId)).rejects.toMatchObject({
      appCode: 'INSUFFICIENT_SCOPE',
      message: expect.stringContaining(`This invitation is for ${invited.email}`),
    });
    await acceptInvitation(token, invited.userId);
    await expect(acceptInvitation(token, invited.userId)).rejects.toMatchObject({
      appCode: 'NOT_FOUND',
      message: INVITATION_REFUSALS.accepted,
    });
    expect(await invitationStatus(token)).toEqual({ status: 'accepted' });

    const late = await makeAccount('free');
    const sent = new Date(Date.now() - (INVITATION_DAYS + 1) * 86_400_000);
    const { token: expired } = await inviteMember(owner, { email: late.email, role: 'analyst' }, sent);
    await expect(acceptInvitation(expired, late.userId)).rejects.toMatchObject({
      message: INVITATION_REFUSALS.expired,
    });
    expect(await invitationStatus(expired)).toEqual({ status: 'expired' });

    const withdrawn = await makeAccount('free');
    const { token: revoked, invitation } = await inviteMember(owner, { email: withdrawn.email, role: 'analyst' });
    await revokeInvitation(owner, invitation.id);
    await expect(acceptInvitation(revoked, withdrawn.userId)).rejects.toMatchObject({
      message: INVITATION_REFUSALS.revoked,
    });
    await expect(acceptInvitation(randomUUID(), withdrawn.userId)).rejects.toMatchObject({
      message: INVITATION_REFUSALS.unknown,
    });
    expect(await invitationStatus('not a token')).toEqual({ status: 'unknown' });
  });

  it('withdrawn while it is being accepted: the withdrawal answers 404 and logs nothing', async () => {
    const owner = await ownerOf();
    const person = await makeAccount('free');
    const { invitation } = await inviteMember(owner, { email: person.email, role: 'analyst' });
    const accepting = [
      {
        text: 'UPDATE invitations SET accepted_at = now(), accepted_by_id = $2 WHERE id = $1',
        values: [invitation.id, person.userId],
      },
    ];
    const outcome = await duringChange(accepting, () => revokeInvitation(owner, invitation.id));
    expect(outcome).toMatchObject({ status: 'rejected', reason: { appCode: 'NOT_FOUND' } });
    expect(
      await db.invitation.findUniqueOrThrow({ where: { id: invitation.id }, select: { revokedAt: true } }),
    ).toEqual({ revokedAt: null });
    expect(
      await db.securityEvent.count({ where: { accountId: owner.accountId, kind: 'member.invitation_revoked' } }),
    ).toBe(0);
  });

  it('sent again to the same address replaces the link: the old one no longer works', async () => {
    const owner = await ownerOf();
    const person = await makeAccount('free');
    const first = await inviteMember(owner, { email: person.email, role: 'analyst' });
    const again = await inviteMember(owner, { email: person.email, role: 'developer' });
    expect(again).toMatchObject({ resent: true, invitation: { id: first.invitation.id, role: 'developer' } });
    await expect(acceptInvitation(first.token, person.userId)).rejects.toMatchObject({
      message: INVITATION_REFUSALS.unknown,
    });
    expect(await acceptInvitation(again.token, person.userId)).toMatchObject({ role: 'developer' });
    await expect(inviteMember(owner, { email: person.email, role: 'analyst' })).rejects.toMatchObject({
      appCode: 'VALIDATION_ERROR',
    });
  });
});

describe('seats', () => {
  it('hold under concurrent invitations: a Pro account (3 seats) with its owner takes two, and refuses the rest with the cap', async () => {
    const owner = await ownerOf('pro');
    const people = await Promise.all(Array.from({ length: 6 }, () => makeAccount('free')));
    const attempts = await Promise.allSettled(
      people.map((person) => inviteMember(owner, { email: person.email, role: 'analyst' })),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(2);
    const refused = attempts
      .filter((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected')
      .map((attempt) => attempt.reason);
    expect(refused).toEqual(
      Array(4).fill(expect.objectContaining({ appCode: 'LIMIT_REACHED', extras: { cap: 'seats', limit: 3 } })),
    );
    expect(await db.invitation.count({ where: { accountId: owner.accountId } })).toBe(2);
  });

  it('refuse acceptances past them once the plan has shrunk since the invitations, concurrent ones alike: nobody joins', async () => {
    const owner = await ownerOf('business');
    const [first, second] = await Promise.all([makeAccount('free'), makeAccount('free')]);
    const invitations = [
      await inviteMember(owner, { email: first!.email, role: 'analyst' }),
      await inviteMember(owner, { email: second!.email, role: 'analyst' }),
    ];
    // Down to Pro (3 seats) with two invitations out and a third member: four, one past the seats.
    const third = await makeAccount('free');
    await db.membership.create({ data: { accountId: owner.accountId, userId: third.userId, role: 'analyst' } });
    await db.account.update({ where: { id: owner.accountId }, data: { plan: 'pro' } });
    const accepted = await Promise.allSettled([
      acceptInvitation(invitations[0]!.token, first!.userId),
      acceptInvitation(invitations[1]!.token, second!.userId),
    ]);
    expect(accepted.map((attempt) => attempt.status)).toEqual(['rejected', 'rejected']);
    expect(accepted.map((attempt) => (attempt as PromiseRejectedResult).reason)).toEqual(
      Array(2).fill(expect.objectContaining({ extras: { cap: 'seats', limit: 3 } })),
    );
    expect(await db.membership.count({ where: { accountId: owner.accountId } })).toBe(2);
  });
});

describe('owners and removals', () => {
  it('the last owner cannot leave, be removed or demoted; an admin changes no owner', async () => {
    const owner = await ownerOf();
    await expect(endMembership(owner, owner.userId)).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR' });
    const admin = await makeAccount('free');
    const { token } = await inviteMember(owner, { email: admin.email, role: 'admin' });
    await acceptInvitation(token, admin.userId);
    const asAdmin = { accountId: owner.accountId, userId: admin.userId, role: 'admin' as const };
    await expect(endMembership(asAdmin, owner.userId)).rejects.toMatchObject({ appCode: 'INSUFFICIENT_SCOPE' });
    await expect(changeMemberRole(asAdmin, owner.userId, 'analyst')).rejects.toMatchObject({
      appCode: 'INSUFFICIENT_SCOPE',
    });
    await expect(changeMemberRole(owner, owner.userId, 'admin')).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR' });
    expect(
      await db.membership.findMany({
        where: { accountId: owner.accountId },
        select: { role: true },
        orderBy: { role: 'asc' },
      }),
    ).toEqual([{ role: 'owner' }, { role: 'admin' }]);
  });

  it('a member removed is refused on their session’s next request; one who joined with no account of their own then has none', async () => {
    const owner = await ownerOf();
    const newcomer = await makeAccount('free');
    // Someone whose only account is this one: as a person who signed up from the invitation.
    await db.membership.delete({
      where: { accountId_userId: { accountId: newcomer.accountId, userId: newcomer.userId } },
    });
    await db.user.update({ where: { id: newcomer.userId }, data: { accountId: null } });
    const { token } = await inviteMember(owner, { email: newcomer.email, role: 'analyst' });
    await acceptInvitation(token, newcomer.userId);
    expect((await db.user.findUniqueOrThrow({ where: { id: newcomer.userId } })).accountId).toBe(owner.accountId);
    const session = await issueSessionToken({ id: newcomer.userId, email: newcomer.email, accountId: owner.accountId });
    const at = { now: new Date(), ip: null };
    expect((await resolveBearer(`Bearer ${session}`, at)).status).toBe('valid');
    await changeMemberRole(owner, newcomer.userId, 'developer');
    await endMembership(owner, newcomer.userId);
    expect((await resolveBearer(`Bearer ${session}`, at)).status).toBe('invalid_token');
    expect((await db.user.findUniqueOrThrow({ where: { id: newcomer.userId } })).accountId).toBeNull();

    const log = await listSecurityEvents(owner.accountId, { page: 1, pageSize: 50 });
    expect(
      log.entries
        .map((entry) => entry.kind)
        .filter((kind) => kind.startsWith('member.'))
        .reverse(),
    ).toEqual(['member.invited', 'member.joined', 'member.role_changed', 'member.removed']);
  });
});

describe('leaving', () => {
  it('the session of a member who leaves goes on in another of their accounts, with their role there', async () => {
    const owner = await ownerOf();
    const member = await makeMember(owner.accountId, 'analyst');
    const left = await handleDashboardTrpcRequest(
      new Request('http://members.test/api/trpc/members.leave', {
        method: 'POST',
        headers: {
          cookie: `next-auth.session-token=${member.session}`,
          'content-type': 'application/json',
          'x-forwarded-for': '198.51.100.41',
        },
        body: '{}',
      }),
    );
    expect(left.status).toBe(200);
    expect(await resolveBearer(`Bearer ${member.session}`, { now: new Date(), ip: null })).toMatchObject({
      status: 'valid',
      actor: { accountId: member.ownAccountId, role: 'owner' },
    });
    expect(await db.membership.count({ where: { accountId: owner.accountId, userId: member.userId } })).toBe(0);
  });
});

describe('ownership', () => {
  it('passes only once the member offered it accepts: they become an owner, the owner who offered it an admin', async () => {
    const owner = await ownerOf();
    const heir = await makeAccount('free');
    await acceptInvitation((await inviteMember(owner, { email: heir.email, role: 'developer' })).token, heir.userId);
    await expect(acceptOwnership(owner.accountId, heir.userId)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await offerOwnership(owner, heir.userId);
    expect(await ownershipOffer(owner.accountId)).toEqual({
      toUserId: heir.userId,
      toEmail: heir.email,
      fromEmail: owner.email,
    });
    const roles = async () =>
      Object.fromEntries((await listMembers(owner.accountId)).members.map((member) => [member.email, member.role]));
    expect(await roles()).toEqual({ [owner.email]: 'owner', [heir.email]: 'developer' });
    await acceptOwnership(owner.accountId, heir.userId);
    expect(await roles()).toEqual({ [owner.email]: 'admin', [heir.email]: 'owner' });
    expect(await ownershipOffer(owner.accountId)).toBeNull();
    // The former owner, an admin now, cannot take it back alone.
    await expect(acceptOwnership(owner.accountId, owner.userId)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    const log = await listSecurityEvents(owner.accountId, {
      kinds: ['ownership.offered', 'ownership.transferred'],
      page: 1,
      pageSize: 10,
    });
    expect(log.entries.map((entry) => entry.kind).reverse()).toEqual(['ownership.offered', 'ownership.transferred']);
  });

  it('an offer withdrawn, or made by an owner who is no longer one, cannot be accepted', async () => {
    const owner = await ownerOf();
    const [heir, coOwner] = [await makeAccount('free'), await makeAccount('free')];
    await acceptInvitation((await inviteMember(owner, { email: heir.email, role: 'analyst' })).token, heir.userId);
    await offerOwnership(owner, heir.userId);
    expect(await withdrawOwnershipOffer(owner.accountId)).toEqual({ withdrawn: true });
    await expect(acceptOwnership(owner.accountId, heir.userId)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await acceptInvitation((await inviteMember(owner, { email: coOwner.email, role: 'admin' })).token, coOwner.userId);
    await db.membership.update({
      where: { accountId_userId: { accountId: owner.accountId, userId: coOwner.userId } },
      data: { role: 'owner' },
    });
    await offerOwnership({ accountId: owner.accountId, userId: coOwner.userId }, heir.userId);
    await changeMemberRole(owner, coOwner.userId, 'admin');
    await expect(acceptOwnership(owner.accountId, heir.userId)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(offerOwnership(owner, owner.userId)).rejects.toMatchObject({ appCode: 'VALIDATION_ERROR' });
  });
});

describe('the invitation mail', () => {
  const ORIGIN = 'http://members.test';
  const invite = (cookie: string, email: string) =>
    handleDashboardTrpcRequest(
      new Request(`${ORIGIN}/api/trpc/members.invite`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ email, role: 'analyst' }),
      }),
    );
  const ownerCookie = async () => {
    const owner = await ownerOf('business');
    return {
      owner,
      cookie: `next-auth.session-token=${await issueSessionToken({ id: owner.userId, email: owner.email, accountId: owner.accountId })}`,
    };
  };

  it('goes through the SMTP server of SMTP_URL, and its link is the one that joins', async () => {
    const received: CaughtMail[] = [];
    const smtp = await startMailCatcher(0, (mail) => received.push(mail));
    vi.stubEnv('SMTP_URL', smtp.url);
    vi.stubEnv('MAIL_FROM', 'ASO Analytics <team@members.test>');
    try {
      const { owner, cookie } = await ownerCookie();
      const person = await makeAccount('free');
      const answer = (await (await invite(cookie, person.email)).json()) as {
        result: { data: { mail: string; link: string | null } };
      };
      expect(answer.result.data).toMatchObject({ mail: 'sent', link: null });
      expect(received).toHaveLength(1);
      expect(received[0]!.to).toEqual([person.email]);
      expect(received[0]!.text).toContain(`${owner.email} invited you to join`);
      const token = /\/invitations\/([A-Za-z0-9_-]+)/.exec(received[0]!.text)![1]!;
      expect(await acceptInvitation(token, person.userId)).toEqual({ accountId: owner.accountId, role: 'analyst' });
    } finally {
      vi.unstubAllEnvs();
      await smtp.close();
    }
  });

  it('without SMTP_URL is not sent: the inviter gets the link to pass on', async () => {
    const { owner, cookie } = await ownerCookie();
    const person = await makeAccount('free');
    const answer = (await (await invite(cookie, person.email)).json()) as {
      result: { data: { mail: string; link: string } };
    };
    expect(answer.result.data).toMatchObject({
      mail: 'not-configured',
      link: expect.stringMatching(/\/invitations\/[A-Za-z0-9_-]{43}$/),
    });
    const token = answer.result.data.link.split('/').at(-1)!;
    expect(await acceptInvitation(token, person.userId)).toMatchObject({ accountId: owner.accountId });
  });
});
