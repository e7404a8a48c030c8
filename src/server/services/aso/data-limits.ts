// What an answer cannot say, in the words every answer that carries it uses (its `freshness.limits`): the stores'
// own bounds on what they show, and how often we read them.

export const DATA_LIMITS = {
  search:
    'A rank is a place in the store’s search results, read once a day: Apple shows at most 200 results, Google Play 100; beyond them the app is unranked.',
  chart: 'A chart position is a place in the store’s top 200 free apps of the category, read once a day.',
  estimates:
    'Volume and difficulty are estimates from what the store shows, not counts the store publishes (docs: "Keyword volume and difficulty").',
  reviews:
    'Reviews are the ones with text the store shows as its most recent, read once a day: the App Store’s feed shows 50 per storefront, Google Play 100 per language; older ones a store no longer shows are not read.',
  storeAccountReviews:
    'Reviews read with your own store account are read once a day: App Store Connect gives every review an app has, Google Play only those written or changed in the last 7 days, so its older reviews are those kept since the account was connected. Google Play does not say the reviewer’s country (`country` is null; `language` says their language).',
  ratings:
    'The rating is the store’s own average over every rating it counts, read once a day in the app’s primary storefront.',
  competitors:
    'A competitor’s name, developer, category and rating are read from the store as it is added (its `describedAt`), not again; its ranks are read every day, from the same search results as the app’s.',
  listing: 'The listing is read once a day; a change made and undone within a day is not seen.',
} as const;

export type DataLimit = keyof typeof DATA_LIMITS;
