// The credit headers of CONTRACT "Credits", on every public API response once the account is known.
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

export function creditHeaders(state: MeteringState, now: Date): Record<string, string> {
  const secondsToReset = Math.max(0, Math.ceil((state.period.end.getTime() - now.getTime()) / 1000));
  const headers: Record<string, string> = {
    'X-Credits-Limit': state.limit === null ? 'unlimited' : String(state.limit),
    'X-Credits-Remaining': state.limit === null ? 'unlimited' : String(Math.max(0, state.limit - state.used)),
    'X-Credits-Used': String(state.used),
    'X-Credits-Reset': state.period.end.toISOString(),
    'X-Credits-Cost': String(state.cost),
  };
  if (state.limit !== null) {
    const windowSeconds = Math.round((state.period.end.getTime() - state.period.start.getTime()) / 1000);
    headers['RateLimit-Policy'] = `"monthly";q=${state.limit};w=${windowSeconds}`;
    headers['RateLimit'] = `"monthly";r=${Math.max(0, state.limit - state.used)};t=${secondsToReset}`;
  }
  return headers;
}
