// Calendar days in UTC. Daily series are keyed by the UTC day; @db.Date columns hold UTC midnight.
const DAY_MS = 86_400_000;

export function startOfUtcDay(instant: Date): Date {
  return new Date(Date.UTC(instant.getUTCFullYear(), instant.getUTCMonth(), instant.getUTCDate()));
}

export function addDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

/** "YYYY-MM-DD" */
/** The last day isoDay wrote, and how: the serving path asks for today's several times a request. */
let lastDay = Number.NaN;
let lastDayText = '';

export function isoDay(day: Date): string {
  const days = Math.floor(day.getTime() / DAY_MS);
  if (days !== lastDay) {
    lastDayText = day.toISOString().slice(0, 10);
    lastDay = days;
  }
  return lastDayText;
}

export function daysBetween(from: Date, to: Date): number {
  return Math.round((startOfUtcDay(to).getTime() - startOfUtcDay(from).getTime()) / DAY_MS);
}

/** Day number since 1970-01-01, for deterministic generators. */
export function epochDay(day: Date): number {
  return Math.floor(day.getTime() / DAY_MS);
}
