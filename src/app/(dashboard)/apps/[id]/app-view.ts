// What every view of one app reads first: the app (404 when it is not the account's) and the storefront it shows.
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDashboardCaller, serverModules } from '@/app/server-modules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type AppViewParams = {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/** The account's app with this id, or the not-found page; read once per request (the layout and the view share it). */
export const readApp = cache(async (id: string) => {
  if (!UUID.test(id)) notFound();
  const caller = await getDashboardCaller();
  try {
    return { caller, app: await caller.apps.get({ id }) };
  } catch (error) {
    if ((await serverModules()).appErrorOf(error)?.appCode === 'NOT_FOUND') notFound();
    throw error;
  }
});

export async function readAppView({ params, searchParams }: AppViewParams) {
  const { caller, app } = await readApp((await params).id);
  const query = await searchParams;
  const asked = param(query, 'country')?.toUpperCase();
  // A storefront the app is not tracked in falls back to its primary one rather than failing the page.
  const country = asked && app.storefronts.includes(asked) ? asked : app.primaryCountry;
  return { caller, app, country, query };
}

/** One string parameter of the page's query. */
export function param(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}
