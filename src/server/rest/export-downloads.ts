// GET /api/public/v1/export-files/{fileId}?expires=…&signature=…: an export's file, by the signed link its export
// gave (no credential: the link is the permission, for its minutes), streamed from its storage (the database's chunks
// or the bucket's object) as it is read, with
// its size, its SHA-256 (ETag and Repr-Digest) and a file name. An altered or expired link is 403, a file no longer
// kept 404, both as problems.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { AppError } from '@/server/errors/app-error';
import { methodNotAllowedProblem, problemAnswer, type Problem } from '@/server/errors/problem-response';
import { logError } from '@/server/core/log';
import { DOWNLOAD_PATH, fileOfLink } from '@/server/services/exports/exports';
import { storedBytes } from '@/server/services/exports/export-storage';
import { exportFileName, FORMAT_MEDIA_TYPES } from '@/server/services/exports/file-writers';

export const EXPORT_DOWNLOAD_PREFIX = `${DOWNLOAD_PATH}/`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function refuse(res: ServerResponse, error: Problem, path: string, origin: string): void {
  const requestId = randomUUID();
  const answer = problemAnswer(error, { origin, instance: path, requestId, headers: { 'X-Request-Id': requestId } });
  res.writeHead(answer.status, { ...answer.headers, 'Content-Length': Buffer.byteLength(answer.body) });
  res.end(answer.body);
}

export async function serveExportDownload(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://download');
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD')
    return refuse(res, methodNotAllowedProblem(method, ['GET', 'HEAD']), url.pathname, origin);
  const fileId = url.pathname.slice(EXPORT_DOWNLOAD_PREFIX.length);
  if (!UUID.test(fileId))
    return refuse(res, new AppError('NOT_FOUND', 'No export file has this address.'), url.pathname, origin);
  try {
    const found = await fileOfLink(
      fileId,
      url.searchParams.get('expires'),
      url.searchParams.get('signature'),
      new Date(),
    );
    if (!found.ok)
      return refuse(
        res,
        new AppError(found.status === 403 ? 'DOWNLOAD_LINK_INVALID' : 'NOT_FOUND', found.detail),
        url.pathname,
        origin,
      );
    const { file } = found;
    res.writeHead(200, {
      'Content-Type': FORMAT_MEDIA_TYPES[file.format],
      'Content-Length': String(file.bytes),
      'Content-Disposition': `attachment; filename="${exportFileName(file.dataset, file.format)}"`,
      ETag: `"${file.sha256}"`,
      'Repr-Digest': `sha-256=:${Buffer.from(file.sha256, 'hex').toString('base64')}:`,
      'Cache-Control': 'private, no-store',
    });
    if (method === 'HEAD') return void res.end();
    for await (const chunk of storedBytes(file)) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once('drain', resolve));
      if (res.destroyed) return;
    }
    res.end();
  } catch (error) {
    logError('an export file could not be served', error, { fileId });
    if (!res.headersSent)
      return refuse(
        res,
        new AppError('SERVICE_UNAVAILABLE', 'The file cannot be read right now; try again.'),
        url.pathname,
        origin,
      );
    res.destroy();
  }
}
