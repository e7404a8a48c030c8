// DATA_PROVIDER=stores: what the App Store and Google Play show today, each app asked of its own store. No history:
// each refresh observes the current day. Every call goes through its store's gate (./store-calls.ts).
import type { Store } from '@/generated/prisma/enums';
import type {
  AppDetails,
  AppObservation,
  DataProvider,
  ObservationRequest,
  ProviderApp,
  ResearchResult,
  StoreReference,
  StoreSearchResult,
} from '../provider';
import { AppStoreProvider } from './app-store/app-store-provider';
import { GooglePlayProvider } from './google-play/google-play-provider';
import type { StoreObserver } from './store-observer';

export class StoresProvider implements DataProvider {
  readonly name = 'stores' as const;
  readonly hasHistory = false;
  private readonly observers: Record<Store, StoreObserver>;

  constructor(observers: Partial<Record<Store, StoreObserver>> = {}) {
    this.observers = {
      app_store: observers.app_store ?? new AppStoreProvider(),
      google_play: observers.google_play ?? new GooglePlayProvider(),
    };
  }

  observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation> {
    return this.observers[app.store].observe(app, request);
  }

  research(term: string, country: string, day: Date, store: Store): Promise<ResearchResult> {
    return this.observers[store].research(term, country, day);
  }

  describe(reference: StoreReference, country: string): Promise<AppDetails | null> {
    return this.observers[reference.store].describe(reference, country);
  }

  /** Both stores' matches, alternating (the best of each first); a store that fails leaves the other's. */
  async searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]> {
    const answers = await Promise.allSettled([
      this.observers.app_store.searchApps(term, country, limit),
      this.observers.google_play.searchApps(term, country, limit),
    ]);
    const lists = answers.map((answer) => (answer.status === 'fulfilled' ? answer.value : []));
    if (answers.every((answer) => answer.status === 'rejected')) throw (answers[0] as PromiseRejectedResult).reason;
    const merged: StoreSearchResult[] = [];
    for (let index = 0; merged.length < limit && lists.some((list) => index < list.length); index++) {
      for (const list of lists) if (list[index] && merged.length < limit) merged.push(list[index]!);
    }
    return merged;
  }
}
