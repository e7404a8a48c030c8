/** "2026-11-21 19:40 UTC": the same rendering on the server and in the browser. */
export function formatInstant(value: string | Date | null | undefined): string {
  if (!value) return '—';
  const iso = (typeof value === 'string' ? new Date(value) : value).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

export function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

export function formatStore(store: 'app_store' | 'google_play'): string {
  return store === 'app_store' ? 'App Store' : 'Google Play';
}
