// GET /docs/api/scalar.js: the API reference's script (src/components/docs/api-reference.tsx), as Scalar's package
// ships it for browsers, served by the app's server itself. Compiled into Next.js's bundles instead, it was more than
// half of the build (docs/testing.md). It is not a route handler of Next.js's, which drops a Content-Encoding and
// compresses no answer of a route handler (vercel/next.js#98007): this script is the largest the app sends.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import Negotiator from 'negotiator';

export const API_REFERENCE_SCRIPT_PATH = '/docs/api/scalar.js';

interface Script {
  body: Buffer;
  /** Gzipped once per process. */
  gzipped: Buffer;
  /** Of its content: the page asks for the script under it, so that a URL always means the same script. */
  version: string;
}

let loaded: Promise<Script> | undefined;

async function readScript(): Promise<Script> {
  // Resolved from the project's root, where the app's server runs (as src/app/server-modules.ts finds dist/).
  const file = createRequire(path.join(process.cwd(), 'package.json')).resolve(
    '@scalar/api-reference/browser/standalone.js',
  );
  const body = await readFile(file);
  return {
    body,
    gzipped: await promisify(gzip)(body),
    version: createHash('sha256').update(body).digest('hex').slice(0, 16),
  };
}

/** Read once per process; a failed read is tried again on the next request. */
function script(): Promise<Script> {
  loaded ??= readScript().catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

/** The script's address for the page, with its version. */
export async function apiReferenceScriptUrl(): Promise<string> {
  return `${API_REFERENCE_SCRIPT_PATH}?v=${(await script()).version}`;
}

/** Answers a GET or HEAD of the script, gzipped for a client that takes it. */
export async function serveApiReferenceScript(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { body, gzipped } = await script();
  const encoding = new Negotiator(req).encoding(['gzip', 'identity']);
  const sent = encoding === 'gzip' ? gzipped : body;
  res.writeHead(200, {
    'Content-Type': 'text/javascript; charset=utf-8',
    'Content-Length': sent.length,
    // Cached for good: the page names the script by its content's version.
    'Cache-Control': 'public, max-age=31536000, immutable',
    Vary: 'Accept-Encoding',
    'X-Content-Type-Options': 'nosniff',
    ...(encoding === 'gzip' ? { 'Content-Encoding': 'gzip' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : sent);
}
