// Accounts and their users: sign-up, plan changes, password sign-in. Used by the dashboard, the auth
// layer and the operator CLI alike.
import { z } from 'zod';
import { db } from '@/server/db';
import type { PlanTier } from '@/generated/prisma/enums';
import { Prisma } from '@/generated/prisma/client';
import { AppError } from '@/server/errors/app-error';
import { parseInput, validationError } from '@/server/errors/validation';
import { hashPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, verifyAgainstNothing, verifyPassword } from './password';
import { PLAN_TIERS, PLANS, type Plan } from './plans';

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.').max(254));
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);
export const planSchema = z.enum(PLAN_TIERS);

export const createAccountInput = z.object({
  email: emailSchema,
  password: passwordSchema,
  plan: planSchema.default('free'),
  accountName: z.string().trim().min(1).max(100).optional(),
  userName: z.string().trim().min(1).max(100).optional(),
});

export interface AccountSummary {
  id: string;
  name: string;
  plan: Plan;
  createdAt: Date;
}

export interface SignedInUser {
  id: string;
  email: string;
  name: string | null;
  accountId: string;
}

export async function createAccount(raw: z.input<typeof createAccountInput>): Promise<{ accountId: string; userId: string }> {
  const input = parseInput(createAccountInput, raw);
  const passwordHash = await hashPassword(input.password);
  try {
    const user = await db.user.create({
      data: {
        email: input.email,
        name: input.userName ?? null,
        passwordHash,
        account: { create: { name: input.accountName ?? input.email, plan: input.plan } },
      },
      select: { id: true, accountId: true },
    });
    return { accountId: user.accountId, userId: user.id };
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') {
      throw validationError([{ in: 'body', pointer: '#/email', detail: 'An account with this email already exists.' }]);
    }
    throw error;
  }
}

export async function setPlanByEmail(rawEmail: string, rawPlan: string): Promise<AccountSummary> {
  const { email, plan } = parseInput(z.object({ email: emailSchema, plan: planSchema }), { email: rawEmail, plan: rawPlan });
  const user = await db.user.findUnique({ where: { email }, select: { accountId: true } });
  if (!user) throw new AppError('NOT_FOUND', `No user with the email ${email}.`);
  await db.account.update({ where: { id: user.accountId }, data: { plan } });
  return getAccountSummary(user.accountId);
}

export async function getAccountSummary(accountId: string): Promise<AccountSummary> {
  const account = await db.account.findUnique({ where: { id: accountId } });
  if (!account) throw new AppError('NOT_FOUND', 'The account does not exist.');
  return { id: account.id, name: account.name, plan: PLANS[account.plan as PlanTier], createdAt: account.createdAt };
}

export async function findUserIdByEmail(rawEmail: string): Promise<{ userId: string; accountId: string }> {
  const email = parseInput(emailSchema, rawEmail);
  const user = await db.user.findUnique({ where: { email }, select: { id: true, accountId: true } });
  if (!user) throw new AppError('NOT_FOUND', `No user with the email ${email}.`);
  return { userId: user.id, accountId: user.accountId };
}

/** Password sign-in. Unknown emails take as long as wrong passwords. */
export async function authenticate(rawEmail: unknown, password: unknown): Promise<SignedInUser | null> {
  const email = emailSchema.safeParse(rawEmail);
  if (!email.success || typeof password !== 'string' || password.length > PASSWORD_MAX_LENGTH) return null;
  const user = await db.user.findUnique({ where: { email: email.data } });
  if (!user) return verifyAgainstNothing(password).then(() => null);
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  return { id: user.id, email: user.email, name: user.name, accountId: user.accountId };
}
