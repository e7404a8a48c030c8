/** "2026-11-21 19:40 UTC": the same rendering on the server and in the browser. */
export function formatInstant(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const iso = (typeof value === 'string' ? new Date(value) : value).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

/** "1 call", "2 calls", "1,500 credits": a count with its noun, singular for one (nouns that take an s). */
export function formatCount(count: number, noun: string): string {
  return `${formatNumber(count)} ${noun}${count === 1 ? '' : 's'}`;
}

export function formatStore(store: 'app_store' | 'google_play'): string {
  return store === 'app_store' ? 'App Store' : 'Google Play';
}

/** "3 h", "2 days": how long before `now`, rounded down, for ages of data. */
export function formatAge(value: string | Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((now.getTime() - new Date(value).getTime()) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.floor(hours / 24)} days`;
}
