// What the consent page (src/app/oauth/consent/[uid]/page.tsx) reads of a pending authorization, from this process's
// authorization server.
import { authorizationServer } from './authorization-server';
import type { ConsentRequest } from './consent';

export function oauthConsentRequest(uid: string): Promise<ConsentRequest | null> {
  return authorizationServer().consentRequest(uid);
}
