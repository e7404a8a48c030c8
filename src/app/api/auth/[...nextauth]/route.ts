import NextAuth from 'next-auth';
import { routeMethods } from '@/app/api/route-methods';
import { serverModules } from '@/app/server-modules';

export const runtime = 'nodejs';

type Context = { params: Promise<{ nextauth: string[] }> };
type Handler = (request: Request, context: Context) => Promise<Response>;

let nextAuth: Handler | undefined;

async function handle(request: Request, context: Context): Promise<Response> {
  if (!nextAuth) {
    const { authOptions, withParsableBody } = await serverModules();
    nextAuth = withParsableBody(NextAuth(authOptions) as Handler);
  }
  return nextAuth(request, context);
}

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: handle, POST: handle });
