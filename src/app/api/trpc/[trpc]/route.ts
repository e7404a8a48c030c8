import { routeMethods } from '@/app/api/route-methods';
import { serverModules } from '@/app/server-modules';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = async (request: Request) => (await serverModules()).handleDashboardTrpcRequest(request);

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: handle, POST: handle });
