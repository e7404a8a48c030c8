// `npm run build`: the server's code compiled by esbuild into dist/ (the app's server, its entry for the Next.js app,
// the launcher, the worker and the operator CLI), then Next.js's own build, which loads dist/server/index.mjs.
// `--server` builds dist/ alone. Production runs these files with plain `node`: no TypeScript loader.
//
// One bundle with shared chunks (splitting): a process that loads two entries (the app's server and, through
// Next.js, dist/server/index.mjs) loads each module of ours once. Packages stay in node_modules (external), as Node
// resolves them.
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import * as esbuild from 'esbuild';

/** `checked:<file>`: the version check, then `<file>` imported dynamically. */
const versionCheckedEntries = {
  name: 'version-checked-entries',
  setup(build) {
    build.onResolve({ filter: /^checked:/ }, (args) => ({
      path: path.resolve(args.path.slice('checked:'.length)),
      namespace: 'checked',
    }));
    build.onLoad({ filter: /.*/, namespace: 'checked' }, (args) => ({
      contents: `import { requireSupportedNode } from ${JSON.stringify(path.resolve('src/server/runtime/supported-node.ts'))};\nrequireSupportedNode();\nawait import(${JSON.stringify(args.path)});\n`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

export const BUILD_OPTIONS = {
  entryPoints: {
    main: 'checked:src/server/main.ts',
    'server/index': 'src/server/index.ts',
    start: 'checked:scripts/start.ts',
    worker: 'checked:scripts/worker.ts',
    admin: 'checked:scripts/admin.ts',
  },
  plugins: [versionCheckedEntries],
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node24',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};

if (import.meta.url === `file://${process.argv[1]}`) {
  await rm('dist', { recursive: true, force: true });
  await esbuild.build(BUILD_OPTIONS);
  console.error('[build] server compiled into dist/');
  if (!process.argv.includes('--server')) {
    const next = spawnSync(process.execPath, ['node_modules/next/dist/bin/next', 'build'], { stdio: 'inherit' });
    process.exit(next.status ?? 1);
  }
}
