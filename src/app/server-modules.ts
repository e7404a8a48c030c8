// The app's one way into the server's modules (src/server/index.ts), and the dashboard's callers built on it.
//
// Next.js does not bundle them: they are loaded at run time from the file `npm run build` compiles them to, the very
// module the app's server (src/server/main.ts) has loaded, so that a page, the dashboard's tRPC endpoint and the
// public API share one copy of each module in the process: one database pool, one response cache, one rate limiter.
import 'server-only';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { cache } from 'react';
import type * as ServerModules from '@/server/index';
import type { Permission } from '@/server/services/access/roles';

/** Where `npm run build` writes the server's entry for the app; the app's server runs from the project's root. */
const SERVER_ENTRY = pathToFileURL(path.join(process.cwd(), 'dist/server/index.mjs')).href;

export function serverModules(): Promise<typeof ServerModules> {
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ SERVER_ENTRY);
}

/**
 * `mode` 'live': the live account, whatever the dashboard's test-mode switch says (the OAuth consent). Read once per
 * request (React's `cache`): the layout, a page's permission check and its caller share one read of the session.
 */
export const getSignedInActor = cache(async (mode: 'switch' | 'live' = 'switch') => {
  const { signedInActor } = await serverModules();
  // The Cookie header as every reader of the session reads it (src/server/auth/cookies.ts), not Next.js's own reading,
  // which keeps the last of a name sent twice where the others keep the first.
  return signedInActor((await headers()).get('cookie'), mode);
});

/**
 * For a dashboard page a member's role may not use (the navigation does not offer it; its address still reaches it):
 * to Members, which says why, rather than the access policy's refusal as an error page.
 */
export async function requirePermission(permission: Permission): Promise<void> {
  const { roleAllows } = await serverModules();
  const actor = await getSignedInActor('switch');
  if (!actor) redirect('/sign-in');
  if (!roleAllows(actor.role, permission)) redirect(`/settings/members?denied=${encodeURIComponent(permission)}`);
}

/** For dashboard pages: the caller of the signed-in user, or a redirect to sign-in. */
export async function getDashboardCaller(mode: 'switch' | 'live' = 'switch') {
  const { pageCaller, clientIp } = await serverModules();
  const actor = await getSignedInActor(mode);
  if (!actor) redirect('/sign-in');
  return pageCaller(actor, clientIp(await headers()));
}
