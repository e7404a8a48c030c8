// The store listing and its changelog: the inputs and answers of their procedures.
import { z } from 'zod';
import { appIdParam, countryQuery, isoDate, isoDateTime } from '@/server/api/schemas';
import { dataFreshness } from '@/server/api/figures';

export const metadataInput = z.object({ id: appIdParam, country: countryQuery });

export const metadataOutput = z
  .object({
    freshness: dataFreshness,
    country: z.string().length(2),
    capturedAt: isoDateTime.meta({ description: 'When this version of the listing was first seen.' }),
    title: z.string(),
    subtitle: z.string().nullable().meta({ description: 'App Store subtitle, or Google Play short description.' }),
    description: z.string(),
    keywordField: z.string().nullable().meta({ description: 'App Store keyword field (null on Google Play).' }),
    promotionalText: z.string().nullable(),
    whatsNew: z.string().nullable(),
    screenshotsCount: z.int(),
    hasVideo: z.boolean(),
    price: z.string().meta({ example: '0.00' }),
    currency: z.string().length(3),
    version: z.string(),
  })
  .meta({ id: 'StoreListing' });

export const changelogOutput = z
  .object({
    freshness: dataFreshness,
    country: z.string().length(2),
    observedSince: isoDate.nullable().meta({
      description:
        'The first day of the listing this storefront’s history holds: no change before it can be listed. Its first call in a storefront new to the app observes it, and the history starts then (the live stores show only today). null: no listing seen there yet.',
      example: '2026-05-30',
    }),
    changes: z.array(
      z.object({
        field: z.string(),
        before: z.string().nullable(),
        after: z.string().nullable(),
        changedAt: isoDateTime,
      }),
    ),
  })
  .meta({ id: 'MetadataChangelog' });
