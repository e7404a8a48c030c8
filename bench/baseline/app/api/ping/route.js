// The bench's baseline (scripts/bench.ts): a bare Next.js route handler, served by `next start` as any Next.js app's
// route is. `?body=<name>` answers the bytes of <name>.json in BENCH_BODY_DIR with the status and headers of
// <name>.head.json, kept in memory after the first read: the bare route answering the same bytes as the endpoint it is
// the baseline of. Without it, `{"ok":true}`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const dynamic = 'force-dynamic';

const stored = new Map();

export async function GET(request) {
  const directory = process.env.BENCH_BODY_DIR;
  const name = new URL(request.url).searchParams.get('body');
  if (directory && name && /^[a-z0-9-]{1,40}$/.test(name)) {
    let answer = stored.get(name);
    if (answer === undefined) {
      const [body, head] = await Promise.all([
        readFile(path.join(directory, `${name}.json`), 'utf8'),
        readFile(path.join(directory, `${name}.head.json`), 'utf8').then((text) => JSON.parse(text)),
      ]);
      answer = { body, init: head };
      stored.set(name, answer);
    }
    return new Response(answer.body, answer.init);
  }
  return Response.json({ ok: true });
}
