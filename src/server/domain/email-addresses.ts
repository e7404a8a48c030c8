// Email addresses as the service keeps them: trimmed and lower-case, so that one person has one address however it is
// typed (sign-up, sign-in, the operator's commands).
import { z } from 'zod';

export const emailAddress = z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.').max(254));

/** The address as kept, or null for text that is not one. */
export function normalEmail(text: unknown): string | null {
  const parsed = emailAddress.safeParse(text);
  return parsed.success ? parsed.data : null;
}
