// Structured logs: one JSON line per API request (request id, route, status, duration, who), and errors
// with their cause. Never a credential, a body or a header value.
type Fields = Record<string, string | number | boolean | null | undefined>;

function write(stream: NodeJS.WriteStream, level: 'info' | 'error', message: string, fields: Fields): void {
  stream.write(JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }) + '\n');
}

export function logRequest(fields: Fields): void {
  if (process.env.LOG_REQUESTS === 'false') return;
  write(process.stdout, 'info', 'request', fields);
}

export function logError(message: string, error: unknown, fields: Fields = {}): void {
  const cause = error instanceof Error ? (error.cause instanceof Error ? error.cause : error) : undefined;
  write(process.stderr, 'error', message, { ...fields, error: cause ? `${cause.name}: ${cause.message}` : String(error), stack: cause?.stack });
}
