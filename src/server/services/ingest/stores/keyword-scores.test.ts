// The keyword estimates: aso's scoring functions as aso computes them, and the method's direction on clear cases.
import { describe, expect, it } from 'vitest';
import {
  aggregate,
  difficultyScore,
  iScore,
  izScore,
  keywordMetrics,
  score,
  trafficScore,
  zScore,
  type SearchSignals,
} from './keyword-scores';

const now = new Date('2026-11-22T00:00:00Z');
const result = (title: string, popularity: number, rating = 4.5, daysOld = 10) => ({
  title,
  rating,
  popularity,
  updatedAt: new Date(now.getTime() - daysOld * 86_400_000),
});

const popular: SearchSignals = {
  term: 'meditation',
  resultCount: 100,
  maxResults: 100,
  popularityCeiling: 1_000_000,
  top: Array.from({ length: 10 }, (_, index) => result(`Meditation app ${index}`, 10_000_000)),
  suggestion: { prefixLength: 4, index: 0 },
};
const obscure: SearchSignals = {
  term: 'guided nidra for night shift nurses',
  resultCount: 6,
  maxResults: 100,
  popularityCeiling: 1_000_000,
  top: [result('Shift Planner', 1_000, 3.1, 400), result('Nurse Notes', 500, 3.4, 700)],
  suggestion: null,
};

describe('keyword scores', () => {
  it('scores as aso’s calc.js does (1 to 10)', () => {
    expect(score(0, 100, 50)).toBe(5.5);
    expect(zScore(100_000, 250_000)).toBe(10);
    expect(iScore(1, 25, 1)).toBe(10);
    expect(izScore(500, 500)).toBe(1);
    expect(aggregate([8, 1], [10, 10])).toBe(10);
    expect(aggregate([8, 1], [1, 1])).toBe(1);
  });

  it('finds a short, suggested term with popular top apps searched more, and harder, than an obscure one', () => {
    expect(trafficScore(popular)).toBeGreaterThan(trafficScore(obscure));
    expect(difficultyScore(popular, now)).toBeGreaterThan(difficultyScore(obscure, now));
    const high = keywordMetrics(popular, now);
    const low = keywordMetrics(obscure, now);
    expect(high.volume).toBeGreaterThan(10 * low.volume);
    expect(high.difficulty).toBeGreaterThan(low.difficulty);
    for (const metrics of [high, low]) {
      expect(metrics.volume).toBeGreaterThanOrEqual(3);
      expect(metrics.volume).toBeLessThanOrEqual(100_000);
      expect(metrics.difficulty).toBeGreaterThanOrEqual(0);
      expect(metrics.difficulty).toBeLessThanOrEqual(100);
    }
  });

  it('answers the least for a term the store finds nothing for', () => {
    expect(keywordMetrics({ ...obscure, resultCount: 0, top: [] }, now)).toEqual({
      volume: Math.round(Math.pow(10, trafficScore({ ...obscure, resultCount: 0, top: [] }) / 2)),
      difficulty: 0,
    });
  });
});
