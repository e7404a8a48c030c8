// The origin the public sees (problem type URIs, the OpenAPI server URL, the docs' examples). It is configured, never
// taken from a request's Host header, which any client sets: APP_ORIGIN when set (behind a proxy), else NEXTAUTH_URL's
// origin, which the app's launcher always sets (`http://localhost:$PORT` by default). Only a handler called without
// either (the tests call handlers in process) falls back to the origin of the request's URL.

/** APP_ORIGIN, else NEXTAUTH_URL's origin; undefined when neither is set (blank counts as unset). */
export function configuredOrigin(): string | undefined {
  const appOrigin = process.env.APP_ORIGIN?.trim();
  if (appOrigin) return appOrigin;
  const nextAuthUrl = process.env.NEXTAUTH_URL?.trim();
  return nextAuthUrl && URL.canParse(nextAuthUrl) ? new URL(nextAuthUrl).origin : undefined;
}

export function publicOrigin(request: Request): string {
  return configuredOrigin() ?? new URL(request.url).origin;
}

/** The same, for a server component, which has no request URL: never its Host header. */
export function pageOrigin(): string {
  return configuredOrigin() ?? `http://localhost:${process.env.PORT ?? 3000}`;
}
