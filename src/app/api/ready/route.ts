import { routeMethods } from '@/app/api/route-methods';
import { serverModules } from '@/app/server-modules';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/**
 * Readiness: 200 when the database is reachable with every migration applied, this process's pool has a connection
 * free, and the job queue is reachable; 503 with the failing check otherwise. Liveness stays /api/health.
 */
async function ready(): Promise<Response> {
  const readiness = await (await serverModules()).readiness();
  return Response.json(readiness, {
    status: readiness.status === 'ready' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: ready });
