// Provider health: when the store last answered for an app and each of its storefronts, and the provider's last
// failure there. The refresh (./refresh.ts) records a success in the transaction that stores the data, so that the
// time and the data always agree, and a failure on its own, since nothing else of that storefront is written.
import { db } from '@/server/db';
import { statusOf } from './stores/store-calls';

/** Longest provider message kept: enough for a status and a path, never a whole HTML error page. */
const MAX_ERROR_LENGTH = 300;

/** The provider's failure as one line to show an operator and a customer (no stack, no body). */
export function providerErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.replace(/\s+/g, ' ').trim() || 'the store failed without a message';
  return line.length > MAX_ERROR_LENGTH ? `${line.slice(0, MAX_ERROR_LENGTH - 1)}…` : line;
}

/** The store answered that it has no such app in the storefront asked (404): not sold there, not a passing failure. */
export function isNotSold(error: unknown): boolean {
  return statusOf(error) === 404;
}

/** Records the storefronts the provider failed, and the app's last failure (the first storefront's message). */
export async function recordProviderFailures(appId: string, failed: Map<string, string>, at: Date): Promise<void> {
  const [first] = failed.values();
  await db.$transaction([
    ...[...failed].map(([country, error]) =>
      db.appStorefront.updateMany({ where: { appId, country }, data: { lastError: error, lastErrorAt: at } }),
    ),
    db.trackedApp.updateMany({
      where: { id: appId },
      data: { lastProviderError: first ?? null, lastProviderErrorAt: at },
    }),
  ]);
}
