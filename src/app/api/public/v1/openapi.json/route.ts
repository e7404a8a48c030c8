// GET /api/public/v1/openapi.json: the published OpenAPI 3.1 contract, public (no credential), generated once.
import { openApiDocumentJson } from '@/server/openapi/document';
import { publicOrigin } from '@/server/http/origin';

export const dynamic = 'force-dynamic';

export function GET(request: Request): Response {
  return new Response(openApiDocumentJson(publicOrigin(request)), {
    headers: { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=300', 'Access-Control-Allow-Origin': '*' },
  });
}
