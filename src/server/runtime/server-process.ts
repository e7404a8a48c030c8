// How the app's server process (src/server/main.ts, built to dist/main.mjs) is started: by `npm start`, the
// benchmark and the e2e tests alike, so that the measured and tested process is the one that runs in production.

/**
 * V8's young generation, raised from its default (16 MB semi-spaces on 64-bit): every API request allocates
 * short-lived objects (query results, JSON, the tRPC call), and a larger nursery collects them in fewer, cheaper
 * scavenges, which sets the API's p99 (docs/benchmarks.md). The cost is up to 64 MB more memory for the nursery.
 */
const APP_NODE_ARGS = ['--max-semi-space-size=32'];

/** The arguments of `node` that run the app's server in production (`start`) or development (`dev`) mode on `port`. */
export function serverArgs(mode: 'start' | 'dev', port: number, extraNodeArgs: string[] = []): string[] {
  return [
    ...APP_NODE_ARGS,
    ...extraNodeArgs,
    'dist/main.mjs',
    ...(mode === 'dev' ? ['--dev'] : []),
    '--port',
    String(port),
  ];
}
