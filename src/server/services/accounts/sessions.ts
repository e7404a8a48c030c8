// Ending a user's sessions from outside them (the operator, for a lost laptop or a departing colleague): every live
// session of the user ends at once, on the dashboard and as a session token on the public API, and the account's
// security log says so.
import { db } from '@/server/db';
import { recordSecurityEvent } from '@/server/services/security-log/security-log';
import { findUserIdByEmail } from './accounts';

export async function endAllSessions(rawEmail: string, now = new Date()): Promise<{ userId: string; ended: number }> {
  const { userId, accountId } = await findUserIdByEmail(rawEmail);
  const user = await db.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
  const { count } = await db.session.updateMany({
    where: { userId, endedAt: null, expiresAt: { gt: now } },
    data: { endedAt: now },
  });
  await recordSecurityEvent({
    accountId,
    kind: 'session.ended',
    target: { type: 'user', id: userId, label: user.email },
    after: { sessionsEnded: count },
    occurredAt: now,
  });
  return { userId, ended: count };
}
