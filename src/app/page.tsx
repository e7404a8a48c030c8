import { redirect } from 'next/navigation';
import { getSignedInActor } from '@/app/server-modules';

export const dynamic = 'force-dynamic';

export default async function Home() {
  redirect((await getSignedInActor()) ? '/apps' : '/sign-in');
}
