// GET /api/public/v1/collection.json: the Postman v2.1 collection of the API, public (no credential), generated once.
import { collectionJson } from '@/server/openapi/collection';
import { publicOrigin } from '@/server/http/origin';

export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return new Response(await collectionJson(publicOrigin(request)), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}
