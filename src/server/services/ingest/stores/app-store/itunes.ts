// Apple's public iTunes endpoints and the shapes of their JSON answers (only the members we read).
// Lookup/Search: https://itunes.apple.com/lookup, /search (iTunes Search API).
// Reviews: https://itunes.apple.com/{cc}/rss/customerreviews/page=1/id={id}/sortby=mostrecent/json
// Charts: https://itunes.apple.com/{cc}/rss/topfreeapplications/limit=200/genre={genreId}/json
import { z } from 'zod';
import { config } from '@/server/core/config';

const softwareResult = z.object({
  trackId: z.number(),
  trackName: z.string(),
  bundleId: z.string().optional(),
  sellerName: z.string().optional(),
  artistName: z.string().optional(),
  primaryGenreName: z.string().optional(),
  primaryGenreId: z.number().optional(),
  averageUserRating: z.number().optional(),
  userRatingCount: z.number().optional(),
  description: z.string().optional(),
  releaseNotes: z.string().optional(),
  version: z.string().optional(),
  price: z.number().optional(),
  currency: z.string().optional(),
  screenshotUrls: z.array(z.string()).optional(),
  ipadScreenshotUrls: z.array(z.string()).optional(),
  artworkUrl100: z.string().optional(),
  artworkUrl512: z.string().optional(),
  currentVersionReleaseDate: z.string().optional(),
});
export type SoftwareResult = z.infer<typeof softwareResult>;

export const searchResponse = z.object({ resultCount: z.number(), results: z.array(z.unknown()) });

const label = z.object({ label: z.string() });
export const reviewEntry = z.object({
  id: label,
  author: z.object({ name: label }),
  updated: label,
  title: label,
  content: label,
  'im:rating': label,
  'im:version': label.optional(),
});
export const reviewsFeed = z.object({
  feed: z.object({ entry: z.union([z.array(z.unknown()), z.unknown()]).optional() }),
});

export const chartEntry = z.object({ id: z.object({ attributes: z.object({ 'im:id': z.string() }) }) });
export const chartFeed = z.object({
  feed: z.object({ entry: z.union([z.array(z.unknown()), z.unknown()]).optional() }),
});

/** RSS feeds give a lone entry as an object and many as an array. */
export function entriesOf(entry: unknown): unknown[] {
  if (entry === undefined || entry === null) return [];
  return Array.isArray(entry) ? entry : [entry];
}

/** Keeps the valid results only: Apple mixes other kinds of record into some answers. */
export function softwareResults(results: unknown[]): SoftwareResult[] {
  return results.flatMap((result) => {
    const parsed = softwareResult.safeParse(result);
    return parsed.success ? [parsed.data] : [];
  });
}

export function lookupUrl(id: string, country: string): string {
  return `${config().ITUNES_ORIGIN}/lookup?id=${encodeURIComponent(id)}&country=${country.toLowerCase()}&entity=software`;
}
export function searchUrl(term: string, country: string, limit = 200): string {
  return `${config().ITUNES_ORIGIN}/search?term=${encodeURIComponent(term)}&country=${country.toLowerCase()}&entity=software&limit=${limit}`;
}
export function reviewsUrl(id: string, country: string): string {
  return `${config().ITUNES_ORIGIN}/${country.toLowerCase()}/rss/customerreviews/page=1/id=${encodeURIComponent(id)}/sortby=mostrecent/json`;
}
export function chartUrl(genreId: number, country: string): string {
  return `${config().ITUNES_ORIGIN}/${country.toLowerCase()}/rss/topfreeapplications/limit=200/genre=${genreId}/json`;
}
