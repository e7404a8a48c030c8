// Calendar days in UTC. Daily series are keyed by the UTC day; @db.Date columns hold UTC midnight.
const DAY_MS = 86_400_000;

export function startOfUtcDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
}

export function addDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

/**
 * The last two days isoDay wrote, and how: the serving path asks for today's and the month's first several times a
 * request, in turns (the credential's period, a charge's day and period), so one remembered day would be written anew
 * at every turn.
 */
const written: [{ day: number; text: string }, { day: number; text: string }] = [
  { day: Number.NaN, text: '' },
  { day: Number.NaN, text: '' },
];

/** "YYYY-MM-DD" */
export function isoDay(day: Date): string {
  const days = Math.floor(day.getTime() / DAY_MS);
  if (written[0].day === days) return written[0].text;
  if (written[1].day === days) return written[1].text;
  const text = day.toISOString().slice(0, 10);
  written[1] = written[0];
  written[0] = { day: days, text };
  return text;
}

export function daysBetween(from: Date, to: Date): number {
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / DAY_MS);
}

/** Day number since 1970-01-01, for deterministic generators. */
export function epochDay(day: Date): number {
  return Math.floor(day.getTime() / DAY_MS);
}
