// What a store's API said when it refused a connected account's request, in the owner's terms: each kind says what
// they can do about it (paste the key again, give it the role it lacks, wait), and whether trying again may help.

export type StoreAccountErrorKind =
  /** The credential is not one: a `.p8` that is no private key, a JSON that is no service account key. */
  | 'invalid-credential'
  /** The store refused the credential: revoked, expired, or without the access the call needs. */
  | 'credential-refused'
  /** The review (or the app) is no longer at the store. */
  | 'not-found'
  /** The store refused what was sent: a reply too long, a review that takes no reply. */
  | 'refused'
  /** The store asks to slow down. */
  | 'rate-limited'
  /** The store did not answer, or failed. */
  | 'store-unavailable';

export class StoreAccountError extends Error {
  readonly kind: StoreAccountErrorKind;
  readonly retryAfterSeconds?: number;

  constructor(kind: StoreAccountErrorKind, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = 'StoreAccountError';
    this.kind = kind;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** Whether the same request may succeed later: the store's rate or its outage, never the owner's credential. */
  get retryable(): boolean {
    return this.kind === 'rate-limited' || this.kind === 'store-unavailable';
  }
}
