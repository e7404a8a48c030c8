// Liveness: answers without touching the database (GET /api/health checks the database). The bench's baseline.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const dynamic = 'force-dynamic';

const stored = new Map<string, string>();

/**
 * With BENCH_BODY_DIR set (only `npm run bench` sets it), `?body=<name>` answers the bytes of <name>.json in that
 * directory, kept in memory after the first read: the bare route answering the same bytes as the endpoint it is the
 * baseline of. Without it the parameter is ignored.
 */
export async function GET(request: Request): Promise<Response> {
  const directory = process.env.BENCH_BODY_DIR;
  if (directory) {
    const name = new URL(request.url).searchParams.get('body');
    if (name && /^[a-z0-9-]{1,40}$/.test(name)) {
      let body = stored.get(name);
      if (body === undefined) {
        body = await readFile(path.join(directory, `${name}.json`), 'utf8');
        stored.set(name, body);
      }
      return new Response(body, { headers: { 'Content-Type': 'application/json' } });
    }
  }
  return Response.json({ ok: true });
}
