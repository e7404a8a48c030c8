/** Liveness: answers without touching the database (GET /api/health checks the database). The bench's baseline. */
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json({ ok: true });
}
