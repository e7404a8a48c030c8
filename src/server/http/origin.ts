// The origin the public sees (problem type URIs, the OpenAPI server URL, the docs' examples): APP_ORIGIN when set
// (behind a proxy), else the request's own.

/** APP_ORIGIN, or undefined when it is unset or blank (then the request's own origin is used). */
export function configuredOrigin(): string | undefined {
  return process.env.APP_ORIGIN?.trim() || undefined;
}

export function publicOrigin(request: Request): string {
  return configuredOrigin() ?? new URL(request.url).origin;
}

/** The same, for a server component, which has the request's headers rather than the request. */
export function publicOriginFromHeaders(headers: Headers): string {
  return configuredOrigin() ?? `${headers.get('x-forwarded-proto') ?? 'http'}://${headers.get('host') ?? 'localhost:3000'}`;
}
