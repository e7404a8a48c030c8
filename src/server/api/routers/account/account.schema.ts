// The account: sign-up input.
import { createAccountInput } from '@/server/services/accounts/accounts';

export const signUpInput = createAccountInput.pick({ email: true, password: true, userName: true });
