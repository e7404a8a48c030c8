// Liveness: answers without touching the database (GET /api/health checks the database). The bench's baseline, served
// as the public API is (src/server/http/direct-route.ts), so that the bench compares like with like.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { offerRouteHandler } from '@/server/http/direct-route';

export const dynamic = 'force-dynamic';

interface StoredAnswer {
  body: string;
  init: ResponseInit;
}

const stored = new Map<string, StoredAnswer>();

/**
 * With BENCH_BODY_DIR set (only `npm run bench` sets it), `?body=<name>` answers the bytes of <name>.json in that
 * directory with the status and headers of <name>.head.json, kept in memory after the first read: the bare route
 * answering the same bytes as the endpoint it is the baseline of. Without it the parameter is ignored.
 */
export async function GET(request: Request): Promise<Response> {
  const directory = process.env.BENCH_BODY_DIR;
  if (directory) {
    const name = new URL(request.url).searchParams.get('body');
    if (name && /^[a-z0-9-]{1,40}$/.test(name)) {
      let answer = stored.get(name);
      if (answer === undefined) {
        const [body, head] = await Promise.all([
          readFile(path.join(directory, `${name}.json`), 'utf8'),
          readFile(path.join(directory, `${name}.head.json`), 'utf8').then((text) => JSON.parse(text) as ResponseInit),
        ]);
        answer = { body, init: head };
        stored.set(name, answer);
      }
      return new Response(answer.body, answer.init);
    }
  }
  return Response.json({ ok: true });
}

// The app's HTTP server calls this same function without Next.js's routing from now on.
offerRouteHandler('/api/ping', GET);
