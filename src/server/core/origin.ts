// The origin the public sees (problem type URIs, the OpenAPI server URL, the docs' examples). It is configured, never
// taken from a request's Host header, which any client sets: APP_ORIGIN when set (behind a proxy), else NEXTAUTH_URL's
// origin, which the app's launcher always sets (`http://localhost:$PORT` by default). Only a handler called without
// either (the tests call handlers in process) falls back to the origin of the request's URL.
import { config } from './config';

/** APP_ORIGIN, else NEXTAUTH_URL's origin; undefined when neither is set (blank counts as unset). */
export function configuredOrigin(): string | undefined {
  const { APP_ORIGIN, NEXTAUTH_URL } = config();
  if (APP_ORIGIN) return new URL(APP_ORIGIN).origin;
  return NEXTAUTH_URL ? new URL(NEXTAUTH_URL).origin : undefined;
}

export function publicOrigin(request: Request): string {
  return configuredOrigin() ?? new URL(request.url).origin;
}

/** The same, for a server component, which has no request URL: never its Host header. */
export function pageOrigin(): string {
  return configuredOrigin() ?? `http://localhost:${config().PORT}`;
}
