import { z } from 'zod';
import { appIdParam, isoDateTime } from '@/server/api/schemas';
import type { AppView } from '@/server/services/apps/apps';

export const appOutput = z
  .object({
    id: z.uuid(),
    store: z.enum(['app_store', 'google_play']).meta({ description: 'The store the app is published in.' }),
    storeId: z.string().meta({ description: 'App Store numeric id, or Google Play package name.', example: '1459969523' }),
    bundleId: z.string().meta({ example: 'com.calmlabs.breathe' }),
    name: z.string(),
    developer: z.string(),
    category: z.string(),
    primaryCountry: z.string().length(2).meta({ description: 'Default storefront for country-scoped endpoints (ISO 3166-1 alpha-2).' }),
    iconUrl: z.url().nullable(),
    storeUrl: z.url().meta({ description: 'Public store page of the app.' }),
    trackedKeywords: z.int().nonnegative().meta({ description: 'Number of tracked keywords, all countries.' }),
    createdAt: isoDateTime.meta({ description: 'When the app was added to the account.' }),
  })
  .meta({ id: 'App', description: 'An app tracked by your account.' });

export function toAppOutput(app: AppView): z.infer<typeof appOutput> {
  return { ...app, createdAt: app.createdAt.toISOString() };
}

export const listAppsInput = z.object({});
export const listAppsOutput = z.array(appOutput);

export const getAppInput = z.object({ id: appIdParam });
