// next-auth v4: email + password sign-in, JWT sessions.
import type { NextAuthOptions } from 'next-auth';
import credentialsModule from 'next-auth/providers/credentials';
import { clientIp } from '@/server/core/client-ip';
import { config } from '@/server/core/config';
import { addResponseCookie } from '@/server/core/request-context';
import { logError } from '@/server/core/log';
import type { KnownBrowserCookie } from '@/server/services/accounts/known-browsers';
import {
  recordSignOut,
  SIGN_IN_BLOCKED,
  SIGN_IN_NO_ACCOUNT,
  signInWithLimit,
} from '@/server/services/accounts/sign-in-limit';
import { parseCookies } from './cookies';
import { endSession, renewSession, SESSION_MAX_AGE_SECONDS, startSession } from './session-token';

/**
 * The provider's factory. next-auth publishes CommonJS with its factory as `exports.default`: Node's own loader (the
 * built server) gives that object as the default import, a bundler (Next.js, Vitest) the factory itself.
 */
const CredentialsProvider =
  (credentialsModule as unknown as { default?: typeof credentialsModule }).default ?? credentialsModule;

/** Thrown by the jwt callback at the renewal of a session that has ended: next-auth answers no session. */
class SessionEndedError extends Error {}

/**
 * next-auth's own errors go to the app's log; a cookie it cannot renew (its session ended, it expired, it is not
 * ours) is an answer, not a fault, and is not logged.
 */
function logAuthError(code: string, metadata: unknown): void {
  const error = metadata instanceof Error ? metadata : (metadata as { error?: unknown } | undefined)?.error;
  const joseCode = (error as { code?: string } | undefined)?.code;
  if (code === 'JWT_SESSION_ERROR' && (error instanceof SessionEndedError || joseCode?.startsWith('ERR_J'))) return;
  logError(`next-auth: ${code}`, error ?? metadata);
}

/**
 * The known-browser cookie as the sign-in routes alone receive it: never readable by a page's script, never sent
 * cross-site with a form, over HTTPS only when the app is served so.
 */
function knownBrowserCookie({ name, value, maxAgeSeconds }: KnownBrowserCookie): string {
  const secure = config().NEXTAUTH_URL?.startsWith('https://') ? '; Secure' : '';
  return `${name}=${value}; Path=/api/auth; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

export const authOptions: NextAuthOptions = {
  session: { strategy: 'jwt', maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: '/sign-in' },
  providers: [
    CredentialsProvider({
      name: 'Email and password',
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
      authorize: async (credentials, request) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(request?.headers ?? {}))
          if (typeof value === 'string') headers.set(name, value);
        const outcome = await signInWithLimit({
          email: credentials?.email,
          password: credentials?.password,
          address: clientIp(headers),
          cookies: parseCookies(headers.get('cookie')),
        });
        // Thrown, next-auth hands the message to the sign-in form as its error (null: wrong email or password).
        if (outcome.kind === 'blocked') throw new Error(SIGN_IN_BLOCKED);
        if (outcome.kind === 'no-account') throw new Error(SIGN_IN_NO_ACCOUNT);
        if (outcome.kind === 'refused') return null;
        const { user, knownBrowser } = outcome;
        addResponseCookie(knownBrowserCookie(knownBrowser));
        return { id: user.id, email: user.email, name: user.name, accountId: user.accountId };
      },
    }),
  ],
  callbacks: {
    // At sign-in (`user` is set) a session starts, and its id goes into this token and every renewal of it. A
    // renewal of a session that has ended throws: next-auth then answers no session and clears the cookie.
    jwt: async ({ token, user }) => {
      if (user) {
        token.accountId = (user as { accountId?: string }).accountId;
        token.sid = await startSession(user.id, (user as unknown as { accountId: string }).accountId);
      } else if (!(await renewSession(token))) {
        throw new SessionEndedError('This session has ended.');
      }
      return token;
    },
  },
  logger: { error: logAuthError },
  events: {
    signOut: async ({ token }) => {
      const accountId = await endSession(token);
      if (token?.sub && accountId) await recordSignOut(accountId, token.sub);
    },
  },
};
