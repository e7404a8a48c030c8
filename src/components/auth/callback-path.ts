// Where to go after signing in: `callbackUrl` names a page of this app, never another site. A value that is not a
// same-origin path (`//evil.example/x`, `/\evil.example`, `https://evil.example`, a path with a tab or newline that
// browsers strip) falls back to the dashboard's home.
const HOME = '/apps';
const BASE = 'http://same-origin.invalid';

export function callbackPath(value: string | null | undefined): string {
  if (!value?.startsWith('/')) return HOME;
  let url: URL;
  try {
    url = new URL(value, BASE);
  } catch {
    return HOME;
  }
  // The URL parser resolves `//host`, `/\host` and stripped control characters exactly as a browser would.
  return url.origin === BASE ? `${url.pathname}${url.search}${url.hash}` : HOME;
}
