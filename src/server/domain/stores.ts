// How messages name the two stores: "the App Store", but "Google Play" (never "the Google Play").
import type { Store } from '@/generated/prisma/enums';

export const STORE_NAME: Record<Store, string> = { app_store: 'the App Store', google_play: 'Google Play' };

/** The store's name opening a sentence: "The App Store …", "Google Play …". */
export function storeNameAtStart(store: Store): string {
  const name = STORE_NAME[store];
  return name.charAt(0).toUpperCase() + name.slice(1);
}
