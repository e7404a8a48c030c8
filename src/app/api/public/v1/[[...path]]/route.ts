import { handlePublicApiRequest } from '@/server/openapi/handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handlePublicApiRequest;
export const POST = handlePublicApiRequest;
export const PUT = handlePublicApiRequest;
export const PATCH = handlePublicApiRequest;
export const DELETE = handlePublicApiRequest;
