// Keyword volume and difficulty for the live stores, neither of which publishes a number. The method is the `aso`
// package's (github.com/facundoolano/aso, lib/scores): signals scored 1–10 with its `calc` functions and merged with
// its weights, restricted to the signals that the calls the refresh makes anyway can give, so that estimating a term
// costs the stores a handful of calls rather than aso's dozens (docs/api-decisions.md, "Keyword volume and
// difficulty", says where and why it differs).

/** One of the store's top results for the term, best first. */
interface TopResult {
  title: string;
  /** Average rating, 0–5. */
  rating: number | null;
  /** Popularity: ratings on the App Store, minimum installs on Google Play (what aso reads on each). */
  popularity: number | null;
  /** When its current version was released. */
  updatedAt: Date | null;
}

export interface SearchSignals {
  term: string;
  /** Results the store's search answered, of at most `maxResults`. */
  resultCount: number;
  maxResults: number;
  /** The top results (at most 10 are read). */
  top: TopResult[];
  /** Popularity aso counts as the most a top app needs: 100,000 ratings (App Store), 1,000,000 installs (Google Play). */
  popularityCeiling: number;
  /**
   * Where the store's autocompletion suggests the term: for the shortest of the prefixes tried that suggests it, its
   * length and the term's place (0 first). null: no prefix suggests it; undefined: the store's suggestions were not read.
   */
  suggestion?: { prefixLength: number; index: number } | null;
}

const MAX_KEYWORD_LENGTH = 25;

// aso's calc.js: scores from 1 to 10.
const round = (value: number) => Math.round(value * 100) / 100;
const clampTo = (min: number, max: number, value: number) => Math.min(max, Math.max(min, value));
export const score = (min: number, max: number, value: number) =>
  round(1 + (9 * (clampTo(min, max, value) - min)) / (max - min));
export const zScore = (max: number, value: number) => score(0, max, value);
export const iScore = (min: number, max: number, value: number) =>
  round(1 + (9 * (max - clampTo(min, max, value))) / (max - min));
export const izScore = (max: number, value: number) => iScore(0, max, value);
export function aggregate(weights: number[], values: number[]): number {
  const sum = weights.reduce((total, weight, index) => total + weight * values[index]!, 0);
  const total = weights.reduce((a, b) => a + b, 0);
  return score(total, 10 * total, sum);
}

function popularityScore(signals: SearchSignals): number {
  const top = signals.top.slice(0, 10);
  if (!top.length) return 1;
  const known = top.map((result) => result.popularity ?? 0);
  return zScore(signals.popularityCeiling, known.reduce((a, b) => a + b, 0) / known.length);
}

/** aso's traffic score: how much the term is searched, 1–10. */
export function trafficScore(signals: SearchSignals): number {
  const length = iScore(1, MAX_KEYWORD_LENGTH, signals.term.length);
  const popularity = popularityScore(signals);
  // In place of aso's "ranked" signal (the top apps' places in their category charts, a chart call per category):
  // how full the store's answer is.
  const results = zScore(signals.maxResults, signals.resultCount);
  if (signals.suggestion === undefined) return aggregate([1, 2, 3], [length, popularity, results]);
  const suggest = signals.suggestion
    ? aggregate(
        [10, 1],
        [iScore(1, MAX_KEYWORD_LENGTH, signals.suggestion.prefixLength), izScore(4, signals.suggestion.index)],
      )
    : 1;
  return aggregate([8, 1, 2, 3], [suggest, length, popularity, results]);
}

function titleMatch(term: string, title: string): 'exact' | 'broad' | 'partial' | 'none' {
  const keyword = term.toLowerCase();
  const name = title.toLowerCase();
  if (name.includes(keyword)) return 'exact';
  const words = keyword
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => name.includes(word));
  if (words.length && words.every(Boolean)) return 'broad';
  return words.some(Boolean) ? 'partial' : 'none';
}

/** aso's difficulty score: how hard ranking in the term's top 10 is, 1–10. */
export function difficultyScore(signals: SearchSignals, now: Date): number {
  const top = signals.top.slice(0, 10);
  if (!top.length) return 1;
  const points = { exact: 10, broad: 5, partial: 2.5, none: 0 };
  const titles = top.reduce((sum, result) => sum + points[titleMatch(signals.term, result.title)], 0) / top.length;
  const rating = (top.reduce((sum, result) => sum + (result.rating ?? 0), 0) / top.length) * 2;
  const dated = top.filter((result) => result.updatedAt);
  const age = dated.length
    ? izScore(
        500,
        dated.reduce((sum, result) => sum + (now.getTime() - result.updatedAt!.getTime()) / 86_400_000, 0) /
          dated.length,
      )
    : null;
  // aso's weights: titles 4, installs 5, rating 2, age 1 (its "competitors" signal, 3, is left out: see above).
  return age === null
    ? aggregate([4, 5, 2], [titles, popularityScore(signals), rating])
    : aggregate([4, 5, 2, 1], [titles, popularityScore(signals), rating, age]);
}

/**
 * What the API answers: `volume`, the traffic score on a logarithmic scale of monthly searches (1 → 3, 5.5 → 560,
 * 10 → 100,000: an order of magnitude, not a count the store reports), and `difficulty`, the difficulty score on 0–100.
 */
export function keywordMetrics(signals: SearchSignals, now: Date): { volume: number; difficulty: number } {
  const traffic = trafficScore(signals);
  return {
    volume: Math.round(Math.pow(10, traffic / 2)),
    difficulty: Math.round(((difficultyScore(signals, now) - 1) / 9) * 100),
  };
}
