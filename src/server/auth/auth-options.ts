// next-auth v4: email + password sign-in, JWT sessions.
import type { NextAuthOptions } from 'next-auth';
import CredentialsProvider from 'next-auth/providers/credentials';
import { authenticate } from '@/server/services/accounts/accounts';
import { endSessionToken, SESSION_MAX_AGE_SECONDS } from './session-token';

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      authorize: async (credentials) => {
        const user = await authenticate(credentials?.email, credentials?.password);
        return user ? { id: user.id, email: user.email, name: user.name, accountId: user.accountId } : null;
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
