// What a key's page reads: the key, its usage and the first page of its request log (404 when the key is not the
// account's), once per request (the layout and the page share it).
import { notFound } from 'next/navigation';
import { cache } from 'react';
import { getDashboardCaller, serverModules } from '@/app/server-modules';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const readKeyView = cache(async (id: string) => {
  if (!UUID.test(id)) notFound();
  const caller = await getDashboardCaller();
  const { appErrorOf } = await serverModules();
  try {
    const [apiKey, usage, calls, apps] = await Promise.all([
      // A connected app (an OAuth grant) has this page too, for its usage, but is no API key: no facts, no roll.
      caller.apiKeys.get({ keyId: id }).catch((error: unknown) => {
        if (appErrorOf(error)?.appCode === 'NOT_FOUND') return null;
        throw error;
      }),
      caller.apiKeys.usage({ keyId: id }),
      caller.apiKeys.calls({ keyId: id }),
      caller.apps.list({}),
    ]);
    return { apiKey, usage, calls, apps: apps.map((app) => ({ id: app.id, name: app.name, store: app.store })) };
  } catch (error) {
    if (appErrorOf(error)?.appCode === 'NOT_FOUND') notFound();
    throw error;
  }
});
