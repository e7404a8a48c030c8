// App Store and Google Play page addresses (CONTRACT "Inputs"), for competitors and for tracking an app.
import type { StoreReference } from '@/server/services/ingest/provider';
import { STOREFRONT_COUNTRIES } from './countries';

const APP_STORE = /^\/([a-z]{2})\/app\/(?:([^/]+)\/)?id(\d{1,12})\/?$/i;
const PLAY_PACKAGE = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;

export const STORE_URL_HELP =
  'Give an App Store URL (https://apps.apple.com/<country>/app/<name>/id<digits>) or a Google Play URL (https://play.google.com/store/apps/details?id=<package>).';

/** The app's name segment, decoded; undefined when its percent-escapes are malformed (then it is no store address). */
function decodedSlug(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return undefined;
  }
}

/** Parses an App Store or Google Play page address; null when it is neither. */
export function parseStoreUrl(value: string): (StoreReference & { canonicalUrl: string }) | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return null;
  const host = url.hostname.toLowerCase();
  if (host === 'apps.apple.com') {
    const match = APP_STORE.exec(url.pathname);
    if (!match) return null;
    const country = match[1]!.toUpperCase();
    if (!STOREFRONT_COUNTRIES.has(country)) return null;
    const slug = match[2] ? decodedSlug(match[2]) : null;
    if (slug === undefined) return null;
    return {
      store: 'app_store',
      storeId: match[3]!,
      country,
      slug,
      canonicalUrl: `https://apps.apple.com/${country.toLowerCase()}/app/${slug ? `${encodeURIComponent(slug)}/` : ''}id${match[3]}`,
    };
  }
  if (host === 'play.google.com' && url.pathname.replace(/\/$/, '') === '/store/apps/details') {
    const id = url.searchParams.get('id');
    if (!id || !PLAY_PACKAGE.test(id) || id.length > 150) return null;
    return {
      store: 'google_play',
      storeId: id,
      country: null,
      slug: null,
      canonicalUrl: `https://play.google.com/store/apps/details?id=${id}`,
    };
  }
  return null;
}
