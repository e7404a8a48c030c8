// Accounts and their users: sign-up (with its trial), the operator's plan changes, password sign-in. Used by the dashboard, the auth
// layer and the operator CLI alike.
import { db } from '@/server/db';
import { Prisma } from '@/generated/prisma/client';
import { AppError } from '@/server/errors/app-error';
import { validationError } from '@/server/errors/validation';
import { normalEmail } from '@/server/domain/email-addresses';
import { hashPassword, PASSWORD_MAX_LENGTH, verifyAgainstNothing, verifyPassword } from './password';
import { changePlan, recordPlanChange } from './plan-changes';
import type { PlanTier } from '@/generated/prisma/enums';
import { accessOf, PLANS, type Plan, type Trial } from './plans';
import { newTrial } from './trials';

/** An account to create with its first user, as account.schema.ts parses it (the email normalised: emailAddress). */
export interface NewAccount {
  email: string;
  password: string;
  /** Omitted: Free. */
  plan?: PlanTier;
  /** Omitted: the email. */
  accountName?: string;
  userName?: string;
}

export interface AccountSummary {
  id: string;
  name: string;
  /** The tier in force now (Free once a trial has ended). */
  plan: Plan;
  creditLimit: number | null;
  trial: Trial | null;
  createdAt: Date;
}

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
  /** The account the sign-in acts for; null once the user belongs to no account. */
  accountId: string | null;
}

/**
 * A new account and its first user. `withTrial` (a sign-up from the dashboard): the account starts on the configured
 * trial instead of `plan`, when trials are on.
 */
export async function createAccount(
  input: NewAccount,
  { withTrial = false, now = new Date() }: { withTrial?: boolean; now?: Date } = {},
): Promise<{ accountId: string; userId: string }> {
  const passwordHash = await hashPassword(input.password);
  const trial = withTrial ? newTrial(now) : null;
  const plan = trial?.tier ?? input.plan ?? 'free';
  try {
    return await db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: {
          email: input.email,
          name: input.userName ?? null,
          passwordHash,
          account: {
            create: {
              name: input.accountName ?? input.email,
              plan,
              trialEndsAt: trial?.endsAt ?? null,
              trialCredits: trial?.credits ?? null,
              createdAt: now,
            },
          },
        },
        select: { id: true, accountId: true },
      });
      const accountId = user.accountId!;
      await tx.membership.create({ data: { accountId, userId: user.id, role: 'owner', createdAt: now } });
      await recordPlanChange(tx, {
        accountId,
        from: null,
        to: plan,
        reason: trial ? 'trial_started' : 'operator',
        now,
      });
      return { accountId, userId: user.id };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw validationError([{ in: 'body', pointer: '#/email', detail: 'An account with this email already exists.' }]);
    }
    throw error;
  }
}

/** The operator's plan change; the email as typed. */
export async function setPlanByEmail(email: string, plan: PlanTier): Promise<AccountSummary> {
  const user = await findUserIdByEmail(email);
  await db.$transaction((tx) =>
    changePlan(tx, { accountId: user.accountId, to: plan, reason: 'operator', now: new Date() }),
  );
  return getAccountSummary(user.accountId);
}

export async function getAccountSummary(accountId: string): Promise<AccountSummary> {
  const account = await db.account.findUnique({ where: { id: accountId } });
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  const access = accessOf(account, new Date());
  return {
    id: account.id,
    name: account.name,
    plan: PLANS[access.plan],
    creditLimit: access.creditLimit,
    trial: access.trial,
    createdAt: account.createdAt,
  };
}

/** The user of an email as typed (any case, spaces around it), with the account they act for (the operator's target). */
export async function findUserIdByEmail(email: string): Promise<{ userId: string; accountId: string }> {
  const normal = normalEmail(email);
  const user =
    normal && (await db.user.findUnique({ where: { email: normal }, select: { id: true, accountId: true } }));
  if (!user) throw new AppError('NOT_FOUND', `No user with the email ${normal ?? email.trim()}.`);
  if (!user.accountId) throw new AppError('NOT_FOUND', `The user with the email ${normal} belongs to no account.`);
  return { userId: user.id, accountId: user.accountId };
}

/** Password sign-in. Unknown emails take as long as wrong passwords. */
export async function authenticate(rawEmail: unknown, password: unknown): Promise<SignedInUser | null> {
  const email = normalEmail(rawEmail);
  if (!email || typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) return null;
  const user = await db.user.findUnique({ where: { email } });
  if (!user) return verifyAgainstNothing(password).then(() => null);
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  return { id: user.id, email: user.email, name: user.name, accountId: user.accountId };
}

/** A new account's first steps, each true once it has happened: an app added, a key created, a first charged call. */
export async function onboardingOf(
  accountId: string,
): Promise<{ appAdded: boolean; keyCreated: boolean; firstCall: boolean }> {
  const [app, key, call] = await Promise.all([
    db.trackedApp.findFirst({ where: { accountId }, select: { id: true } }),
    db.apiKey.findFirst({ where: { accountId, kind: 'api_key' }, select: { id: true } }),
    db.creditUsageDaily.findFirst({ where: { accountId }, select: { day: true } }),
  ]);
  return { appAdded: app !== null, keyCreated: key !== null, firstCall: call !== null };
}
