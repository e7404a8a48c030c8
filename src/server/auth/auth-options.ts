// next-auth v4: email + password sign-in, JWT sessions.
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { clientIp } from '@/server/http/client-ip';
import { SIGN_IN_BLOCKED, signInWithLimit } from '@/server/services/accounts/sign-in-limit';
import { endSessionToken, SESSION_MAX_AGE_SECONDS } from './session-token';

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      authorize: async (credentials, request) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request?.headers ?? {})) if (typeof value === 'string') headers.set(name, value);
        const outcome = await signInWithLimit(credentials?.email, credentials?.password, clientIp(headers));
        // Thrown, next-auth hands the message to the sign-in form as its error (null: wrong email or password).
        if (outcome.kind === 'blocked') throw new Error(SIGN_IN_BLOCKED);
        if (outcome.kind === 'refused') return null;
        const { user } = outcome;
        return { id: user.id, email: user.email, name: user.name, accountId: user.accountId };
      },
    }),
  ],
  callbacks: {
    jwt: ({ token, user }) => {
      if (user) token.accountId = (user as { accountId?: string }).accountId;
      return token;
    },
  },
  events: {
    signOut: async ({ token }) => endSessionToken(token),
  },
};
