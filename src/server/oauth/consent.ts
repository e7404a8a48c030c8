// The consent step of an OAuth authorization: the account owner, signed in to the dashboard, sees which client asks,
// where it sends them back, and chooses the scope, the apps and an optional monthly budget (the page:
// src/app/oauth/consent/[uid]/page.tsx). Their decision is posted here, to the app's server rather than to Next.js:
// finishing the interaction needs oidc-provider's own request and response (its interaction cookie, its redirect).
//
// An allow makes the grant (oidc-provider's Grant, for the MCP server's resource and the chosen scope) and its
// connected app (src/server/services/oauth/connected-apps.ts) with the restrictions chosen, then resumes the
// authorization, which sends the browser back to the client with a code. A deny resumes it with access_denied.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { z } from 'zod';
import { keyRestrictionsInput } from '@/server/api/routers/api-keys/api-keys.schema';
import { actorFromSessionCookie } from '@/server/auth/dashboard';
import { parseCookies } from '@/server/auth/cookies';
import { logError } from '@/server/core/log';
import { AppError } from '@/server/errors/app-error';
import { mcpResource } from '@/server/mcp/mcp-endpoint';
import { readBodyText } from '@/server/core/request-body';
import { createConnectedApp } from '@/server/services/oauth/connected-apps';
import { admitRole } from '@/server/services/access/access-policy';
import { OAUTH_SCOPES, type OAuthScope } from './scopes';

export const CONSENT_PATH = '/oauth/consent';

/** What the consent page shows of a pending authorization. */
export interface ConsentRequest {
  uid: string;
  clientId: string;
  clientName: string;
  /** The client's logo (an HTTPS address it gave), or null. */
  logoUri: string | null;
  /**
   * Where the client's name and logo come from: the host its Client ID Metadata Document was fetched from (its
   * `client_id` is that document's address, so the host vouches for them), or null for a client that registered
   * itself (RFC 7591), whose name nobody vouches for.
   */
  metadataHost: string | null;
  /** Where the browser goes back to, as its host: what the owner should recognise. */
  redirectHost: string;
  /** The scopes the owner may grant (grantableScopes), the narrowest first: the page's default. */
  scopes: OAuthScope[];
}

/**
 * The scopes the owner may grant: read-write when the app asked for it (or named neither, see withImpliedScopes in
 * ./authorization-server.ts), read-only always: the owner may grant less than the app asked.
 */
function grantableScopes(requested: string | undefined): OAuthScope[] {
  return (requested ?? '').split(' ').includes('read-write') ? ['read-only', 'read-write'] : ['read-only'];
}

/** The pending authorization `uid`, or null once it is finished or expired. */
export async function consentRequestOf(provider: Provider, uid: string): Promise<ConsentRequest | null> {
  const interaction = await provider.Interaction.find(uid);
  if (!interaction) return null;
  const params = interaction.params as { client_id?: string; redirect_uri?: string; scope?: string };
  const client = params.client_id ? await provider.Client.find(params.client_id) : undefined;
  if (!client || !params.redirect_uri) return null;
  return {
    uid,
    clientId: client.clientId,
    clientName: client.clientName ?? client.clientId,
    logoUri: typeof client.logoUri === 'string' && client.logoUri.startsWith('https://') ? client.logoUri : null,
    metadataHost: URL.canParse(client.clientId) ? new URL(client.clientId).host : null,
    redirectHost: URL.canParse(params.redirect_uri)
      ? new URL(params.redirect_uri).host || params.redirect_uri
      : params.redirect_uri,
    scopes: grantableScopes(params.scope),
  };
}

/** The form the consent page posts. */
const decisionForm = z.discriminatedUnion('decision', [
  z.object({ decision: z.literal('deny') }),
  z.object({
    decision: z.literal('allow'),
    scope: z.enum(OAUTH_SCOPES),
    apps: z.enum(['all', 'some']),
    appIds: z.array(z.string()).default([]),
    monthlyBudget: z
      .string()
      .trim()
      .transform((value) => (value === '' ? null : Number(value))),
  }),
]);

/** The access policy's refusal of `check`, in words; null when it passes. */
function refusalOf(check: () => void): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof AppError) return error.message;
    throw error;
  }
}

function formOf(body: string): unknown {
  const form = new URLSearchParams(body);
  return {
    decision: form.get('decision'),
    scope: form.get('scope'),
    apps: form.get('apps'),
    appIds: form.getAll('appIds'),
    monthlyBudget: form.get('monthlyBudget') ?? '',
  };
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 });
  res.end();
}

/** Back to the consent page with what to fix, the choices kept by the browser's history. */
function backWithError(res: ServerResponse, uid: string, message: string): void {
  redirect(res, `${CONSENT_PATH}/${uid}?error=${encodeURIComponent(message)}`);
}

/**
 * POST /oauth/consent/<uid>. Cross-site posts are refused (the Origin must be ours), the owner must be signed in to
 * the dashboard, and the interaction must be this browser's (oidc-provider checks its signed cookie).
 */
export function createConsentHandler(provider: Provider, origin: string) {
  const resource = mcpResource(origin);
  return async function serveConsentDecision(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    try {
      if (req.headers.origin !== origin) {
        res.writeHead(403, { 'Content-Type': 'text/plain' }).end('A consent is given from this site’s own page only.');
        return;
      }
      const cookies = parseCookies(req.headers.cookie);
      // A connection is the live account's, whichever mode the dashboard is in.
      const actor = await actorFromSessionCookie((name) => cookies.get(name), { mode: 'live' });
      if (!actor?.userId) return redirect(res, `/sign-in?callbackUrl=${encodeURIComponent(`${CONSENT_PATH}/${uid}`)}`);
      // A connection is a credential of the account: only a member whose role manages keys may make one.
      const roleRefusal = refusalOf(() => admitRole(actor, { permission: 'keys.manage' }));
      if (roleRefusal) return backWithError(res, uid, roleRefusal);
      const details = await provider.interactionDetails(req, res).catch(() => null);
      if (!details || details.uid !== uid) {
        res
          .writeHead(400, { 'Content-Type': 'text/plain' })
          .end(
            'This sign-in request has expired or belongs to another browser; start again from the app that sent you here.',
          );
        return;
      }
      const parsed = decisionForm.safeParse(formOf(await readBodyText(req)));
      if (!parsed.success) return backWithError(res, uid, 'Choose a scope and which apps the connection may reach.');
      const form = parsed.data;
      if (form.decision === 'deny') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The account owner declined the connection.' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const params = details.params as { client_id: string; scope?: string };
      if (!grantableScopes(params.scope).includes(form.scope))
        return backWithError(res, uid, 'The app did not ask for that scope.');
      const restrictions = keyRestrictionsInput.safeParse({
        appIds: form.apps === 'all' ? null : form.appIds,
        monthlyBudget: form.monthlyBudget,
      });
      if (!restrictions.success)
        return backWithError(res, uid, restrictions.error.issues[0]?.message ?? 'Check the apps and the budget.');
      const client = await provider.Client.find(params.client_id);
      if (!client) return backWithError(res, uid, 'The app that asked is no longer registered.');

      // The owner's choice is the grant's, and so the tokens' scope; what was asked beyond it is rejected, not left
      // pending. read-write includes read-only.
      const grant = new provider.Grant({ accountId: actor.userId, clientId: client.clientId });
      const asked = (params.scope ?? '').split(' ').filter(Boolean);
      grant.addResourceScope(resource, form.scope === 'read-write' ? 'read-only read-write' : 'read-only');
      if (form.scope === 'read-only' && asked.includes('read-write')) grant.rejectResourceScope(resource, 'read-write');
      // OpenID's own scopes reveal nothing but the user's opaque id (`sub`): granted when asked.
      const openid = asked.filter((scope) => scope === 'openid' || scope === 'offline_access');
      if (openid.length) grant.addOIDCScope(openid.join(' '));
      const grantId = await grant.save();
      try {
        await createConnectedApp({
          accountId: actor.accountId,
          userId: actor.userId,
          grantId,
          clientId: client.clientId,
          clientName: client.clientName ?? client.clientId,
          scope: form.scope,
          restrictions: restrictions.data,
        });
      } catch (error) {
        await grant.destroy();
        if (error instanceof AppError) return backWithError(res, uid, error.message);
        throw error;
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: actor.userId }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      logError('the OAuth consent failed', error);
      if (!res.headersSent)
        res.writeHead(500, { 'Content-Type': 'text/plain' }).end('The consent could not be recorded; try again.');
    }
  };
}
