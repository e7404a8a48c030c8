import { routeMethods } from '@/app/api/route-methods';
import { serverModules } from '@/app/server-modules';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** 200 once the database is reachable and every migration is applied; 503 otherwise. */
async function health(): Promise<Response> {
  const health = await (await serverModules()).databaseHealth();
  return Response.json(health, {
    status: health.status === 'ok' ? 200 : 503,
    headers: { 'Cache-Control': 'no-store' },
  });
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: health });
