// Selects the data provider: DATA_PROVIDER=demo or stores. Unset, the process preparing the database settles it
// (src/server/runtime/prepare.ts, settleDataProvider); a process that did not (a test) gets the demo data. A test
// sandbox's apps (test mode) always get the demo provider's generated data, never a store's: test calls cost no store
// request, and nothing of a store mixes with it.
import { DemoProvider } from './demo/demo-provider';
import { StoresProvider } from './stores/stores-provider';
import type { Store } from '@/generated/prisma/enums';
import { logError } from '@/server/core/log';
import { AppError } from '@/server/errors/app-error';
import { storeNameAtStart } from '@/server/domain/stores';
import type { AppDetails, DataProvider, StoreReference, StoreSearchResult } from './provider';
import { config } from '@/server/core/config';

let provider: DataProvider | undefined;
let sandboxProvider: DataProvider | undefined;

/** The live data's provider. */
export function dataProvider(): DataProvider {
  if (!provider) {
    provider = config().DATA_PROVIDER === 'stores' ? new StoresProvider() : new DemoProvider();
  }
  return provider;
}

/** The provider of a mode's data: the live one, or the test sandboxes' demo provider. */
export function dataProviderFor(livemode: boolean): DataProvider {
  if (livemode) return dataProvider();
  sandboxProvider ??= new DemoProvider();
  return sandboxProvider;
}

/**
 * Replaces the provider of this process until the returned function puts the previous one back: tests run the
 * `stores` provider on recorded answers, or on a store that fails, through the same services and endpoints.
 */
export function useDataProvider(next: DataProvider): () => void {
  const previous = provider;
  provider = next;
  return () => {
    provider = previous;
  };
}

/** Seconds a client should wait before asking again while a store fails. */
const STORE_RETRY_AFTER_SECONDS = 60;

/** 503 store-unavailable: a live answer was needed from a store that fails, and nothing was stored or charged. */
export function storeUnavailable(store: Store, detail: string): AppError {
  return new AppError(
    'STORE_UNAVAILABLE',
    `${storeNameAtStart(store)} cannot be read right now: ${detail} Nothing was charged.`,
    {
      headers: { 'Retry-After': String(STORE_RETRY_AFTER_SECONDS) },
    },
  );
}

/** The store's description of an app (adding it, or a competitor): null when the store does not have it; 503 when the store fails. */
export async function describeInStore(
  reference: StoreReference,
  country: string,
  livemode = true,
): Promise<AppDetails | null> {
  try {
    return await dataProviderFor(livemode).describe(reference, country);
  } catch (error) {
    logError('the store failed to describe an app', error, { store: reference.store, storeId: reference.storeId });
    throw storeUnavailable(reference.store, 'nothing was added; try again in a minute.');
  }
}

/** The stores' apps matching a name (the dashboard's Add app); 503 when no store answers. */
export async function searchStores(
  term: string,
  country: string,
  limit: number,
  livemode = true,
): Promise<StoreSearchResult[]> {
  try {
    return await dataProviderFor(livemode).searchApps(term, country, limit);
  } catch (error) {
    logError('the store failed to search apps', error, { country });
    throw storeUnavailable('app_store', 'paste the app’s store page address instead, or try again in a minute.');
  }
}
