// Where an account's credits stand after a call, once for every channel: REST's credit headers (CONTRACT "Credits"), on
// every public API response once the account is known, and the `credits` of an MCP tool result's `_meta`.
import type { Period } from './credits';

export interface MeteringState {
  /** null: unlimited (Enterprise). */
  limit: number | null;
  /** Credits used this period: as read with the credential, then as returned by this call's charge. */
  used: number;
  /** What this call charged: 0 unless it succeeded. */
  cost: number;
  period: Period;
}

export interface CreditStanding {
  charged: number;
  used: number;
  /** null: unlimited. */
  limit: number | null;
  remaining: number | null;
  resetsAt: string;
}

export function creditStanding(state: MeteringState): CreditStanding {
  return {
    charged: state.cost,
    used: state.used,
    limit: state.limit,
    remaining: state.limit === null ? null : Math.max(0, state.limit - state.used),
    resetsAt: state.period.end.toISOString(),
  };
}

export function creditHeaders(state: MeteringState, now: Date): Record<string, string> {
  const standing = creditStanding(state);
  const secondsToReset = Math.max(0, Math.ceil((state.period.end.getTime() - now.getTime()) / 1000));
  const headers: Record<string, string> = {
    'X-Credits-Limit': standing.limit === null ? 'unlimited' : String(standing.limit),
    'X-Credits-Remaining': standing.remaining === null ? 'unlimited' : String(standing.remaining),
    'X-Credits-Used': String(standing.used),
    'X-Credits-Reset': standing.resetsAt,
    'X-Credits-Cost': String(standing.charged),
  };
  if (standing.limit !== null) {
    const windowSeconds = Math.round((state.period.end.getTime() - state.period.start.getTime()) / 1000);
    headers['RateLimit-Policy'] = `"monthly";q=${standing.limit};w=${windowSeconds}`;
    headers['RateLimit'] = `"monthly";r=${standing.remaining};t=${secondsToReset}`;
  }
  return headers;
}
