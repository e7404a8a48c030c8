// Sign-ups per client address: a script creating accounts in bulk (for Free accounts, trials or spam) is held to a
// few an hour per address, counted in PostgreSQL so that every app process counts the same sign-ups (services/limits/shared-rate-limit.ts). Every attempt
// counts, a refused one too: it spares the password hashing and says nothing of which emails exist.
import { sharedRateLimit } from '@/server/services/limits/shared-rate-limit';
import { rateLimited } from '@/server/errors/app-error';

export const SIGN_UPS_PER_ADDRESS = { signUps: 10, windowSeconds: 3600 } as const;

/** Counts a sign-up from `address` (the client's, as the HTTP front settled it), or throws 429 past the limit. */
export async function countSignUp(address: string | null): Promise<void> {
  const decision = await sharedRateLimit(
    'sign-up',
    SIGN_UPS_PER_ADDRESS.signUps,
    SIGN_UPS_PER_ADDRESS.windowSeconds,
  ).consume(address ?? 'unknown');
  if (!decision.allowed) {
    const { retryAfterSeconds } = decision;
    throw rateLimited(
      `Too many sign-ups from this network; retry in ${Math.ceil(retryAfterSeconds / 60)} min.`,
      retryAfterSeconds,
    );
  }
}
