// The data's figures, each described once: where it comes from, how often it is observed, what null means and what
// it cannot say. Every answer that carries one uses these, so the API reference and the data dictionary (/docs/data)
// say the same of it everywhere (docs/api-decisions.md, "What the data knows").
import { z } from 'zod';

/** What `volume` and `difficulty` mean (docs/api-decisions.md, "Keyword volume and difficulty"). */
export const VOLUME_METHOD =
  'Estimated monthly searches in the storefront. Neither store publishes one: it is estimated from what the store’s search (and, on Google Play, its autocompletion) shows, with the aso package’s traffic score (1–10) on a logarithmic scale (1 ≈ 3, 5.5 ≈ 560, 10 ≈ 100,000). An order of magnitude to compare terms, not a count.';
export const DIFFICULTY_METHOD =
  '0 (easy) to 100 (hard): how hard ranking in the top 10 is, from the top results’ titles, popularity, ratings and freshness (the aso package’s difficulty score, 1–10, on 0–100).';

/** Observed once a day with the term's refresh; null: not observed that day (before the term's first refresh). */
export const volumeFigure = z
  .int()
  .nullable()
  .meta({
    description: `${VOLUME_METHOD} Observed once a day; null when the term was not observed that day (before its first data refresh).`,
  });
export const difficultyFigure = z
  .int()
  .min(0)
  .max(100)
  .nullable()
  .meta({
    description: `${DIFFICULTY_METHOD} Observed once a day; null when the term was not observed that day (before its first data refresh).`,
  });

/** A rank in a store's search results, as an answer about a day gives it. */
export const searchRankFigure = z.int().min(1).nullable().meta({
  description:
    'Place in the store’s search results for the term that day (1 = first), observed once a day. Null when the app was not in the results (Apple shows at most 200, Google Play 100) or the search was not observed that day: the `status` beside it says which.',
});

/** A place in a list that only holds ranked apps (the top results, the terms an app ranks for): never null. */
export const listedRankFigure = z.int().min(1).meta({
  description: 'Place in the store’s search results (1 = first), as the store showed them when they were read.',
});

/** A store's own rating of an app, as it shows it. */
export const storeRatingFigure = z.number().nullable().meta({
  description:
    'The store’s average star rating (1–5) of the app, over every rating it counts, with or without a written review, as the store showed it when read. Null when the store showed none (no ratings yet).',
});
export const storeRatingCountFigure = z.int().nullable().meta({
  description:
    'How many ratings the store’s average counts, as the store showed it when read. Null when the store showed none.',
});

/** A review's own stars. */
export const reviewStarsFigure = z
  .int()
  .min(1)
  .max(5)
  .meta({ description: 'The stars the reviewer gave (1–5), as the store shows the review.' });

/** An average of reviews' stars over what a summary counts. */
export const reviewAverageFigure = z.number().meta({
  description:
    'Average stars (1–5) of the reviews counted here: reviews with text the store showed, not every rating (the store’s own average is the app’s rating).',
});

/** What a data answer knows of its own freshness: one component, documented once (`DataFreshness`). */
export const dataFreshness = z
  .object({
    storefront: z.string().length(2).nullable().meta({
      description: 'The storefront the answer reads (ISO 3166-1 alpha-2); null: every storefront of the app.',
    }),
    dataThrough: z.iso.date().nullable().meta({
      description:
        'The last day of data the answer reads: the app’s last observed day (the daily refresh observes each app once a day). null: the app has no data yet (its history is loading).',
    }),
    limits: z.array(z.string()).meta({
      description:
        'What the answer cannot say: the stores’ own bounds on what they show (Apple’s search shows at most 200 results, Google Play’s 100; reviews are the store’s most recent ones) and how often they are read.',
    }),
  })
  .meta({
    id: 'DataFreshness',
    description: 'When the data was last observed, for which storefront, and what the answer cannot say.',
  });
export type DataFreshness = z.infer<typeof dataFreshness>;
