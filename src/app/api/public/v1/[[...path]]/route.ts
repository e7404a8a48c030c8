import { offerRouteHandler } from '@/server/http/direct-route';
import { handlePublicApiRequest, PUBLIC_API_BASE_PATH } from '@/server/openapi/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request) => handlePublicApiRequest(request);

// The app's HTTP server calls this same function without Next.js's routing from now on (src/server/http/direct-route.ts).
offerRouteHandler(PUBLIC_API_BASE_PATH, handle);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
export const OPTIONS = handle;
