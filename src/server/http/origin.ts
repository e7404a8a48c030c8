// The origin the public sees (problem type URIs, the OpenAPI server URL, the docs' examples): APP_ORIGIN when set
// (behind a proxy), else the request's own.
export function publicOrigin(request: Request): string {
  return process.env.APP_ORIGIN ?? new URL(request.url).origin;
}

/** The same, for a server component, which has the request's headers rather than the request. */
export function publicOriginFromHeaders(headers: Headers): string {
  return process.env.APP_ORIGIN ?? `${headers.get('x-forwarded-proto') ?? 'http'}://${headers.get('host') ?? 'localhost:3000'}`;
}
