// The app's HTTP server: Node's server with the front (src/server/http/front.ts) ahead of Next.js's own request
// handler. `npm start`, `npm run dev`, the bench and the e2e tests all run it through scripts/serve.mjs
// (./next-process.ts). It stands where `next start` stood and keeps its behaviour: it listens on every interface,
// and a SIGTERM or SIGINT stops new connections, lets the requests in flight finish, then closes Next.js.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type createNextServer from 'next';
import { DIRECT_ROUTES } from '@/server/http/direct-route';
import { trustedProxiesSetting } from '@/server/http/client-address';
import { createFront } from '@/server/http/front';
import { directRoutesSetting } from './settings';

export interface ServeOptions {
  dev: boolean;
  port: number;
}

/** The host name Next.js builds a route's `request.url` with, as under `next start` without `-H`. */
const NEXT_HOSTNAME = 'localhost';

/** Next.js is handed in by scripts/serve.mjs, which loads it as Node does, outside this module's TypeScript loader. */
export async function serve(next: typeof createNextServer, { dev, port }: ServeOptions): Promise<void> {
  const server = createServer();
  const app = next({ dev, dir: process.cwd(), hostname: NEXT_HOSTNAME, port, httpServer: server });
  await app.prepare();
  const handle = app.getRequestHandler();
  // DIRECT_ROUTES=false leaves every route to Next.js's routing, as under `next start` (the bench's reference).
  const direct = !dev && directRoutesSetting();
  const front = createFront({ hostname: NEXT_HOSTNAME, port, direct, trustedProxies: trustedProxiesSetting() });

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (front(req, res)) return;
    handle(req, res).catch((error: unknown) => {
      // As `next start` does: Next.js's handler answers its own errors, so this is a fault in Next.js itself.
      console.error(`Failed to handle request for ${req.url}`, error);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end('Internal Server Error');
      } else res.destroy();
    });
  });
  // Node would close a CONNECT's connection without a word unless it is listened for.
  server.on('connect', front.refuseTunnel);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Next.js loads a route module when it first routes a request to it; these first requests hand the handlers of
  // DIRECT_ROUTES to the front (src/server/http/direct-route.ts), so that the first client request is served like the others.
  if (direct) await loadDirectRoutes(port);
  console.error(`[serve] Next.js ${dev ? 'development' : 'production'} server listening on port ${port}`);

  let closing = false;
  const close = (exitCode: number) => {
    if (closing) return;
    closing = true;
    const finish = () => void app.close().finally(() => process.exit(exitCode));
    // close() refuses new connections, closes idle keep-alive ones, and calls back once those in flight are done. In
    // development, as `next dev` does, nothing is waited for: open pages hold the hot reloader's connections.
    server.close(dev ? undefined : finish);
    server.closeIdleConnections();
    if (dev) finish();
  };
  process.on('SIGTERM', () => close(143));
  process.on('SIGINT', () => close(130));
}

/**
 * A request to each route that the front leaves to Next.js while the route's handler is not offered, and that Next.js
 * answers from the route module, loading it: OPTIONS to the public API (401 without a credential, no lookup), GET to
 * /api/ping (the front answers OPTIONS to the other route handlers itself).
 */
const WARM_UP: Record<(typeof DIRECT_ROUTES)[number], string> = { '/api/public/v1': 'OPTIONS', '/api/ping': 'GET' };

async function loadDirectRoutes(port: number): Promise<void> {
  for (const route of DIRECT_ROUTES) {
    try {
      await fetch(`http://127.0.0.1:${port}${route}`, { method: WARM_UP[route], signal: AbortSignal.timeout(30_000) });
    } catch {
      // Then Next.js serves the route until a request to it loads the module.
    }
  }
}
