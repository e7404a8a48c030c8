// The origin the public sees (problem type URIs, the OpenAPI server URL): APP_ORIGIN when set (behind a proxy),
// else the request's own.
export function publicOrigin(request: Request): string {
  return process.env.APP_ORIGIN ?? new URL(request.url).origin;
}
