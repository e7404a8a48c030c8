// How the app's HTTP server process is started (scripts/serve.mjs: the front, then Next.js), shared by `npm start`,
// the benchmark and the e2e tests, so that the measured process is the one that runs in production.

/**
 * V8's young generation, raised from its default (16 MB semi-spaces on 64-bit): every API request allocates
 * short-lived objects (the tRPC pipeline, query results, JSON), and a larger nursery collects them in fewer,
 * cheaper scavenges. Measured with `npm run bench` (paired runs on this 2-core machine): GET /apps/{id} went from
 * 0.47 to 0.54 of the bare route, p99 from ~86 to ~62 ms; the cost is up to 64 MB more memory for the nursery.
 */
export const APP_NODE_ARGS = ['--max-semi-space-size=32'];

/** The arguments of `node` that run the app's server in production (`start`) or development (`dev`) mode on `port`. */
export function nextServerArgs(mode: 'start' | 'dev', port: number, extraNodeArgs: string[] = []): string[] {
  return [...APP_NODE_ARGS, ...extraNodeArgs, 'scripts/serve.mjs', ...(mode === 'dev' ? ['--dev'] : []), '--port', String(port)];
}
