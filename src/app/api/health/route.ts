import { databaseHealth } from '@/server/db/health';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

/** 200 once the database is reachable and every migration is applied; 503 otherwise. */
export async function GET(): Promise<Response> {
  const health = await databaseHealth();
  return Response.json(health, { status: health.status === 'ok' ? 200 : 503, headers: { 'Cache-Control': 'no-store' } });
}
