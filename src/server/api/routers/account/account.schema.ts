// The account: a new one with its first user (sign-up, and the operator's `account create`).
import { z } from 'zod';
import { emailAddress } from '@/server/domain/email-addresses';
import type { NewAccount } from '@/server/services/accounts/accounts';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@/server/services/accounts/password';
import { PLAN_TIERS } from '@/server/services/accounts/plans';

export const newAccountInput = z.object({
  email: emailAddress,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
    .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`),
  plan: z.enum(PLAN_TIERS).default('free'),
  accountName: z.string().trim().min(1).max(100).optional(),
  userName: z.string().trim().min(1).max(100).optional(),
}) satisfies z.ZodType<NewAccount>;

/** Sign-up from the dashboard: the plan is the trial's (or Free), never the visitor's choice. */
export const signUpInput = newAccountInput.pick({ email: true, password: true, userName: true });
