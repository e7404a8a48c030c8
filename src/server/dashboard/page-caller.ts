// A dashboard page's (a server component's) way to the procedures: the runner's steps of a dashboard call, as
// /api/trpc's calls take them (./trpc-endpoint.ts), from the page request's Cookie header and client address. A page
// is a read of the page's own request: no write to refuse as cross-site, no log line of its own (the page's request is
// Next.js's).
import { randomUUID } from 'node:crypto';
import { createDashboardCaller } from '@/server/api/dashboard-router';
import type { Actor } from '@/server/auth/actor';
import { admitSession, runDashboardCall, type CallTrace } from '@/server/operations/runner';

function pageTrace(clientAddress: string | null): CallTrace {
  return { channel: 'dashboard', requestId: randomUUID(), now: new Date(), method: 'GET', clientAddress };
}

/**
 * The signed-in user of a page's request, or null. `mode` 'live': the live account whatever the dashboard's test-mode
 * switch says (the OAuth consent).
 */
export function signedInActor(cookie: string | null, mode: 'switch' | 'live' = 'switch'): Promise<Actor | null> {
  return admitSession(pageTrace(null), { cookie, crossSiteWrite: false, mode });
}

/** The procedures as `actor` calls them from a page (no one signed in: the public ones, an invitation's). */
export function pageCaller(actor: Actor | null, clientAddress: string | null) {
  // A page is one request of its user's against the dashboard's rate, however many calls it makes.
  const trace = { ...pageTrace(clientAddress), ...(actor ? { actor } : {}), pageRequest: { counted: false } };
  return createDashboardCaller({
    actor,
    transport: 'dashboard',
    requestId: trace.requestId,
    clientIp: clientAddress,
    now: trace.now,
    steps: (call) => runDashboardCall(trace, call),
  });
}
