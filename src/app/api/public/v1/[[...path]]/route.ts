import { handlePublicApiRequest } from '@/server/openapi/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request) => handlePublicApiRequest(request);

export const GET = handle;
export const POST = handle;
export const PUT = handle;
export const PATCH = handle;
export const DELETE = handle;
