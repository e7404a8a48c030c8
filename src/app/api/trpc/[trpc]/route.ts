import { handleDashboardTrpcRequest } from '@/server/api/dashboard-handler';

export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

export const GET = handleDashboardTrpcRequest;
export const POST = handleDashboardTrpcRequest;
