// The scopes an OAuth grant may have: a key's two, with the same meaning (read-only: the read tools; read-write: the
// write tools too).
export const OAUTH_SCOPES = ['read-only', 'read-write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];
