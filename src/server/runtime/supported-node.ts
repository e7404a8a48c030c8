// The Node.js versions the app runs on. The project brings its own Node 24 (package.json's optionalDependencies), so
// every npm script runs on it whatever the machine's own Node is; a process started by hand on an older Node stops
// here, before any other module of ours loads (scripts/build.mjs puts this check in front of every entry point).
// Why 22: oidc-provider and the MCP conformance suite need it, and Node 20 has had no security fixes since
// 30 April 2026. 24 is the LTS the project and its production image run.

export const MINIMUM_NODE_MAJOR = 22;

/** Why this Node.js cannot run the app, or null when it can. */
export function unsupportedNodeMessage(nodeVersion: string): string | null {
  const major = Number(nodeVersion.split('.')[0]);
  if (major >= MINIMUM_NODE_MAJOR) return null;
  return [
    `This is Node.js ${nodeVersion}; the app needs Node.js ${MINIMUM_NODE_MAJOR} or later (24 LTS, which the project brings).`,
    'Start it through npm (npm start, npm run worker, npm run admin -- …), which runs the Node.js 24 that npm ci',
    'installed in node_modules/.bin, or run node_modules/.bin/node yourself, or install Node.js 24 (.nvmrc).',
  ].join('\n');
}

/** Stops the process at once, with the reason, on a Node.js the app does not support. */
export function requireSupportedNode(): void {
  const message = unsupportedNodeMessage(process.versions.node);
  if (message === null) return;
  process.stderr.write(`${message}\n`);
  process.exit(1);
}
