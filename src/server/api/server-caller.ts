// Server components call the dashboard's procedures through a caller, so pages show exactly what the API answers.
import 'server-only';
import { randomUUID } from 'node:crypto';
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { actorFromSessionCookie } from '@/server/auth/dashboard';
import { clientIp } from '@/server/http/client-ip';
import { createDashboardCaller } from './dashboard-router';

export async function getSignedInActor() {
  const jar = await cookies();
  return actorFromSessionCookie((name) => jar.get(name)?.value);
}

/** For dashboard pages: the caller of the signed-in user, or a redirect to sign-in. */
export async function getDashboardCaller() {
  const actor = await getSignedInActor();
  if (!actor) redirect('/sign-in');
  return createDashboardCaller({ actor, transport: 'dashboard', requestId: randomUUID(), clientIp: clientIp(await headers()), now: new Date() });
}
