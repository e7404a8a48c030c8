// The app's HTTP server process (src/server/runtime/serve.ts): `node scripts/serve.mjs [--dev] --port <port>`.
// Plain JavaScript so that Next.js is loaded as Node loads it, as under `next start`; only our own modules go
// through tsx, whose loader is scoped to the one import below and never sees Next.js's files.
import { tsImport } from 'tsx/esm/api';

const args = process.argv.slice(2);
const dev = args.includes('--dev');
const portAt = args.indexOf('--port');
const port = Number(portAt === -1 ? (process.env.PORT ?? 3000) : args[portAt + 1]);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`usage: node scripts/serve.mjs [--dev] --port <port>`);
  process.exit(2);
}
// What the `next` command sets before it loads the server.
process.env.NODE_ENV ??= dev ? 'development' : 'production';
process.env.NEXT_RUNTIME = 'nodejs';

const { default: next } = await import('next');
const { serve } = await tsImport('../src/server/runtime/serve.ts', import.meta.url);
await serve(next, { dev, port });
