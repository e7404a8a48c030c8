// The rank chart tells a day not in the store's results from a day not observed: in its summary (what assistive
// technology reads) and in the days it shades.
import { describe, expect, it } from 'vitest';
import { summaryOf, unobservedRuns, type RankSeries } from './rank-comparison-chart';

const days = ['2026-11-01', '2026-11-02', '2026-11-03', '2026-11-04', '2026-11-05'];
const line = (key: string, points: [number | null, RankSeries['points'][number]['status']][]): RankSeries => ({
  key,
  label: key,
  points: points.map(([rank, status], index) => ({ date: days[index]!, rank, status })),
});

describe('the rank chart', () => {
  const app = line('calm', [
    [null, 'not_observed'],
    [null, 'not_observed'],
    [12, 'ranked'],
    [null, 'unranked'],
    [9, 'ranked'],
  ]);
  const competitor = line('headspace', [
    [null, 'not_observed'],
    [4, 'ranked'],
    [3, 'ranked'],
    [null, 'not_observed'],
    [2, 'ranked'],
  ]);

  it('says for each line how many days were not ranked and how many not observed', () => {
    expect(summaryOf([app, competitor])).toBe(
      'Daily rank from 2026-11-01 to 2026-11-05. calm: #12 to #9, best #9; not ranked 1 day, not observed 2 days; headspace: #4 to #2, best #2; not observed 2 days.',
    );
    expect(
      summaryOf([
        line(
          'new',
          days.map(() => [null, 'not_observed']),
        ),
      ]),
    ).toContain('new: no rank (not observed 5 days)');
    expect(
      summaryOf([
        line(
          'gone',
          days.map(() => [null, 'unranked']),
        ),
      ]),
    ).toContain('gone: no rank (not ranked 5 days)');
  });

  it('shades only the days no line was observed, never a day a line was out of the results', () => {
    expect(unobservedRuns([app, competitor], days)).toEqual([{ from: '2026-11-01', to: '2026-11-01' }]);
    expect(unobservedRuns([app], days)).toEqual([{ from: '2026-11-01', to: '2026-11-02' }]);
    expect(unobservedRuns([competitor], days)).toEqual([
      { from: '2026-11-01', to: '2026-11-01' },
      { from: '2026-11-04', to: '2026-11-04' },
    ]);
  });
});
