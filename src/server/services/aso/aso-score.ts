// The ASO score: 0–100 from four weighted pillars, each computed from named inputs, with recommendations.
// Deterministic: the same data gives the same score. See SCORING below for every rule.
import { readAsoScoreInputs } from '@/server/db/aso-score-statements';
import { addDays, daysBetween, isoDay } from '@/server/core/dates';
import { AppError } from '@/server/errors/app-error';
import { freshnessOf, loadAppIn } from './app-context';

/** Character limits of the listing fields, per store. */
const LIMITS = {
  app_store: { title: 30, subtitle: 30, keywordField: 100, description: 4000, screenshots: 10 },
  google_play: { title: 30, subtitle: 80, keywordField: 0, description: 4000, screenshots: 8 },
} as const;

const PILLAR_WEIGHTS = { metadata: 0.3, keywords: 0.3, ratings: 0.25, creatives: 0.15 } as const;
type Pillar = keyof typeof PILLAR_WEIGHTS;

interface Recommendation {
  pillar: Pillar;
  impact: 'high' | 'medium' | 'low';
  message: string;
}

const ratio = (value: number, target: number) => Math.max(0, Math.min(1, target ? value / target : 1));
const round = (value: number) => Math.round(value * 10) / 10;

export async function asoScore(accountId: string, input: { appId: string; country?: string }) {
  const { app, country } = await loadAppIn(accountId, input);
  const since = addDays(app.asOf, -29);
  const inputs = await readAsoScoreInputs({
    appId: app.id,
    storeAppId: app.storeAppId,
    primaryCountry: app.primaryCountry,
    store: app.store,
    livemode: app.livemode,
    country,
    asOf: app.asOf,
    since,
  });
  const { listing, keywords: keywordRows, rating } = inputs;
  if (!listing)
    throw new AppError('NOT_FOUND', `No listing of this app has been recorded in the ${country} storefront yet.`);
  const limits = LIMITS[app.store];
  const recommendations: Recommendation[] = [];
  const recommend = (pillar: Pillar, impact: Recommendation['impact'], message: string) =>
    recommendations.push({ pillar, impact, message });

  // Metadata: how much of each field's room is used.
  const titleUse = ratio(listing.title.length, limits.title);
  const subtitleLength = listing.subtitle?.length ?? 0;
  const subtitleUse = ratio(subtitleLength, limits.subtitle);
  const keywordFieldLength = listing.keywordField?.length ?? 0;
  const keywordFieldUse = limits.keywordField ? ratio(keywordFieldLength, limits.keywordField) : 1;
  const descriptionUse = ratio(listing.description.length, 1500);
  const metadataScore = 100 * (0.35 * titleUse + 0.25 * subtitleUse + 0.25 * keywordFieldUse + 0.15 * descriptionUse);
  if (titleUse < 0.9)
    recommend(
      'metadata',
      'high',
      `Title uses ${listing.title.length} of ${limits.title} characters: add a high-volume keyword to it.`,
    );
  if (subtitleUse < 0.9)
    recommend(
      'metadata',
      'medium',
      `${app.store === 'app_store' ? 'Subtitle' : 'Short description'} uses ${subtitleLength} of ${limits.subtitle} characters.`,
    );
  if (limits.keywordField && keywordFieldUse < 0.95)
    recommend(
      'metadata',
      'high',
      `Keyword field uses ${keywordFieldLength} of ${limits.keywordField} characters: fill it with terms not already in the title.`,
    );
  if (descriptionUse < 1)
    recommend(
      'metadata',
      'low',
      `Description has ${listing.description.length} characters; 1,500 or more lets you cover features and keywords.`,
    );

  // Keywords: volume-weighted visibility of the tracked terms.
  const tracked = keywordRows.length;
  const top10 = keywordRows.filter((row) => row.rank !== null && row.rank <= 10).length;
  const ranked = keywordRows.filter((row) => row.rank !== null).length;
  const totalVolume = keywordRows.reduce((sum, row) => sum + (row.volume ?? 0), 0);
  const visibility = totalVolume
    ? keywordRows.reduce(
        (sum, row) =>
          sum + (row.volume ?? 0) * (row.rank === null ? 0 : row.rank <= 10 ? 1 : row.rank <= 50 ? 0.4 : 0.1),
        0,
      ) / totalVolume
    : 0;
  const inTitle = keywordRows.filter((row) =>
    `${listing.title} ${listing.subtitle ?? ''}`.toLowerCase().includes(row.term.toLowerCase()),
  ).length;
  const keywordsScore = tracked
    ? 100 * (0.6 * visibility + 0.25 * ratio(top10, tracked) + 0.15 * ratio(inTitle, Math.min(tracked, 3)))
    : 0;
  if (!tracked) recommend('keywords', 'high', `Track keywords in ${country} to measure keyword visibility.`);
  else {
    if (top10 < tracked)
      recommend(
        'keywords',
        'high',
        `${top10} of ${tracked} tracked keywords rank in the top 10; see opportunities for the most promising ones.`,
      );
    if (inTitle === 0)
      recommend('keywords', 'medium', 'None of the tracked keywords appears in the title or subtitle.');
  }

  // Ratings & reviews.
  const average = rating?.average ?? null;
  const count = rating?.count ?? 0;
  const recent = inputs!.reviews;
  const negativeShare = recent ? inputs!.negative / recent : 0;
  const ratingsScore =
    100 *
    (0.5 * ratio((average ?? 0) - 3, 1.7) +
      0.3 * ratio(Math.log10(count + 1), 5) +
      0.2 * (1 - ratio(negativeShare, 0.5)));
  if (average !== null && average < 4.5)
    recommend(
      'ratings',
      'high',
      `Average rating is ${average.toFixed(2)}: ask happy users for a rating at a moment of success.`,
    );
  if (count < 10_000)
    recommend(
      'ratings',
      'medium',
      `${count.toLocaleString('en-US')} ratings; more ratings make the average more convincing.`,
    );
  if (negativeShare > 0.15)
    recommend(
      'ratings',
      'medium',
      `${Math.round(negativeShare * 100)}% of the last 30 days' reviews are negative: see review insights for the bugs they report.`,
    );

  // Creatives & conversion.
  const screenshotUse = ratio(listing.screenshotsCount, limits.screenshots);
  const daysSinceRelease = inputs!.last_release ? daysBetween(new Date(inputs!.last_release), app.asOf) : null;
  const freshness = daysSinceRelease === null ? 0.5 : daysSinceRelease <= 30 ? 1 : daysSinceRelease <= 90 ? 0.6 : 0.2;
  const creativesScore = 100 * (0.5 * screenshotUse + 0.3 * (listing.hasVideo ? 1 : 0) + 0.2 * freshness);
  if (screenshotUse < 1)
    recommend('creatives', 'medium', `${listing.screenshotsCount} of ${limits.screenshots} screenshots used.`);
  if (!listing.hasVideo) recommend('creatives', 'medium', 'No preview video: a video usually lifts conversion.');
  if (daysSinceRelease !== null && daysSinceRelease > 30)
    recommend(
      'creatives',
      'low',
      `Last release was ${daysSinceRelease} days ago; regular updates keep the listing fresh.`,
    );

  const pillars = {
    metadata: {
      score: round(metadataScore),
      weight: PILLAR_WEIGHTS.metadata,
      inputs: {
        titleLength: listing.title.length,
        titleLimit: limits.title,
        subtitleLength,
        subtitleLimit: limits.subtitle,
        keywordFieldLength,
        keywordFieldLimit: limits.keywordField,
        descriptionLength: listing.description.length,
      },
    },
    keywords: {
      score: round(keywordsScore),
      weight: PILLAR_WEIGHTS.keywords,
      inputs: {
        trackedKeywords: tracked,
        rankedKeywords: ranked,
        top10Keywords: top10,
        volumeWeightedVisibility: round(visibility * 100) / 100,
        keywordsInTitleOrSubtitle: inTitle,
      },
    },
    ratingsAndReviews: {
      score: round(ratingsScore),
      weight: PILLAR_WEIGHTS.ratings,
      inputs: {
        averageRating: average,
        ratingCount: count,
        reviewsLast30Days: recent,
        negativeShareLast30Days: round(negativeShare * 100) / 100,
      },
    },
    creativesAndConversion: {
      score: round(creativesScore),
      weight: PILLAR_WEIGHTS.creatives,
      inputs: {
        screenshots: listing.screenshotsCount,
        screenshotLimit: limits.screenshots,
        hasVideo: listing.hasVideo,
        daysSinceLastRelease: daysSinceRelease,
      },
    },
  };
  const score = Math.round(
    pillars.metadata.score * PILLAR_WEIGHTS.metadata +
      pillars.keywords.score * PILLAR_WEIGHTS.keywords +
      pillars.ratingsAndReviews.score * PILLAR_WEIGHTS.ratings +
      pillars.creativesAndConversion.score * PILLAR_WEIGHTS.creatives,
  );
  const impactOrder = { high: 0, medium: 1, low: 2 };
  recommendations.sort((a, b) => impactOrder[a.impact] - impactOrder[b.impact]);
  return {
    country,
    date: isoDay(app.asOf),
    score,
    pillars,
    recommendations,
    freshness: freshnessOf(app, country, ['search', 'estimates', 'ratings', 'reviews', 'listing']),
  };
}
