import NextAuth from 'next-auth';
import { authOptions } from '@/server/auth/auth-options';
import { withParsableBody } from '@/server/auth/auth-route';

export const runtime = 'nodejs';

const handler = withParsableBody(NextAuth(authOptions) as (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>);
export { handler as GET, handler as POST };
