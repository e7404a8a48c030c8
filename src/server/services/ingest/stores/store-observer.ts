import type { Store } from '@/generated/prisma/enums';
import type { AppDetails, AppObservation, ObservationRequest, ProviderApp, ResearchResult, StoreReference, StoreSearchResult } from '../provider';

/** One store's half of the `stores` provider (./stores-provider.ts): the same questions, for that store's apps. */
export interface StoreObserver {
  readonly store: Store;
  observe(app: ProviderApp, request: ObservationRequest): Promise<AppObservation>;
  research(term: string, country: string, day: Date): Promise<ResearchResult>;
  describe(reference: StoreReference, country: string): Promise<AppDetails | null>;
  searchApps(term: string, country: string, limit: number): Promise<StoreSearchResult[]>;
}
