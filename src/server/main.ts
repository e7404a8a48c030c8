// The app's server process: `node dist/main.mjs [--dev] --port <port>`, as the launcher (scripts/start.ts) starts it.
// Node's HTTP server with the public API, the MCP server and the OAuth authorization server mounted on it and Next.js behind (./http/app-server.ts). It listens on every
// interface, and a SIGTERM or SIGINT stops new connections, lets the requests in flight finish, then closes Next.js.
import { parseArgs } from 'node:util';
import { keepNativeDate } from './core/clock';
import { configuredOrigin } from './core/origin';
import { createAppServer, type NextHandler } from './http/app-server';
import { trustedProxiesSetting } from './http/client-address';
import { createMcpEndpoint } from './mcp/mcp-endpoint';
import { createAuthorizationServer } from './oauth/authorization-server';
import { createRestPipeline } from './rest/pipeline';
import { flushKeyCalls } from './services/api-keys/key-calls';
import { joinRegisters, leaveRegisters } from './services/limits/shared-rate-limit';
import { config, exportToEnvironment } from './core/config';

// Before Next.js wraps the global Date (./core/clock.ts).
keepNativeDate();

const { values } = parseArgs({ options: { dev: { type: 'boolean', default: false }, port: { type: 'string' } } });
const dev = values.dev;
const port = values.port === undefined ? config().PORT : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('usage: node dist/main.mjs [--dev] --port <port>');
  process.exit(2);
}
// What the `next` command sets before it loads Next.js.
exportToEnvironment({ NODE_ENV: dev ? 'development' : 'production', NEXT_RUNTIME: 'nodejs' });

const origin = configuredOrigin() ?? `http://localhost:${port}`;
let handleNext: NextHandler | undefined;
const authorizationServer = createAuthorizationServer({ origin });
const server = createAppServer({
  rest: createRestPipeline({ origin }),
  mcp: createMcpEndpoint({ origin }),
  oauth: authorizationServer.serve,
  next: (req, res) => handleNext!(req, res),
  trustedProxies: trustedProxiesSetting(),
  origin,
});
const { default: next } = await import('next');
// Next.js is given the server (its development mode listens to it for the hot reloader's upgrades).
const app = next({ dev, dir: process.cwd(), hostname: 'localhost', port, httpServer: server });
await app.prepare();
handleNext = app.getRequestHandler();
await new Promise<void>((resolve, reject) => {
  server.once('error', reject);
  server.listen(port, () => {
    server.off('error', reject);
    resolve();
  });
});
console.error(`[server] listening on port ${port} (Next.js ${dev ? 'development' : 'production'})`);
joinRegisters();

let closing = false;
function close(exitCode: number): void {
  if (closing) return;
  closing = true;
  // The keys' request logs this process still holds are written before it exits, and the other processes' limits
  // stop counting it among the live ones.
  const finish = () =>
    void Promise.all([flushKeyCalls(), leaveRegisters()])
      .finally(() => app.close())
      .finally(() => process.exit(exitCode));
  // close() refuses new connections, closes idle keep-alive ones, and calls back once those in flight are done. In
  // development, as `next dev` does, nothing is waited for: open pages hold the hot reloader's connections.
  server.close(dev ? undefined : finish);
  server.closeIdleConnections();
  if (dev) finish();
}
process.on('SIGTERM', () => close(143));
process.on('SIGINT', () => close(130));
// Started by the launcher (scripts/start.ts), which owns the database: should it die without stopping this server
// (SIGKILL), the channel closes, and the server stops rather than serve on without it.
if (process.connected) process.once('disconnect', () => close(1));
