// Store accounts (issue 67): the inputs and answers of their procedures.
import { z } from 'zod';
import { isoDateTime } from '@/server/api/schemas';
import type { StoreAccountCredential, StoreAccountView } from '@/server/services/store-accounts/store-accounts';

const store = z.enum(['app_store', 'google_play'], 'The store is app_store or google_play.');

export const connectStoreAccountInput = z.discriminatedUnion('store', [
  z.strictObject({
    store: z.literal('app_store'),
    issuerId: z
      .string('Give the issuer id.')
      .trim()
      .regex(
        /^[0-9a-f-]{36}$/i,
        'The issuer id is the UUID shown above the keys in App Store Connect (Users and Access → Integrations).',
      ),
    keyId: z
      .string('Give the key id.')
      .trim()
      .regex(/^[A-Z0-9]{10}$/, 'The key id is the 10 characters shown beside the key, e.g. 2X9R4HXF34.'),
    privateKey: z
      .string('Give the key’s .p8 file.')
      .min(1, 'Give the key’s .p8 file.')
      .max(5_000, 'A .p8 file is a few hundred characters: this is not one.'),
  }),
  z.strictObject({
    store: z.literal('google_play'),
    serviceAccountKey: z
      .string('Give the service account’s JSON key.')
      .min(1, 'Give the service account’s JSON key.')
      .max(20_000, 'A service account key is a few kilobytes: this is not one.'),
  }),
]) satisfies z.ZodType<StoreAccountCredential>;

export const removeStoreAccountInput = z.strictObject({ store });

export const storeAccountOutput = z.object({
  id: z.uuid(),
  store,
  label: z.string(),
  lastCheckedAt: isoDateTime,
  lastError: z.string().nullable(),
  ownedApps: z.array(z.object({ id: z.uuid(), name: z.string() })),
  createdAt: isoDateTime,
});

export function toStoreAccountOutput(view: StoreAccountView): z.infer<typeof storeAccountOutput> {
  return { ...view, lastCheckedAt: view.lastCheckedAt.toISOString(), createdAt: view.createdAt.toISOString() };
}
