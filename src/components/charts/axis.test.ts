import { describe, expect, it } from 'vitest';
import { dayTick, rankTicks } from './axis';

describe('date ticks', () => {
  it('name the month, and the year where one begins', () => {
    expect(dayTick('2026-11-28')).toBe('Nov 28');
    expect(dayTick('2026-03-01')).toBe('Mar 1');
    expect(dayTick('2027-01-01')).toBe('Jan 1 2027');
  });
});

describe('rank ticks', () => {
  it('start at 1 and go by round steps to the first past the worst rank', () => {
    expect(rankTicks(4)).toEqual([1, 2, 3, 4]);
    expect(rankTicks(33)).toEqual([1, 10, 20, 30, 40]);
    expect(rankTicks(40)).toEqual([1, 10, 20, 30, 40]);
    expect(rankTicks(164)).toEqual([1, 50, 100, 150, 200]);
    expect(rankTicks(200)).toEqual([1, 50, 100, 150, 200]);
    expect(rankTicks(9)).toEqual([1, 2, 4, 6, 8, 10]);
    expect(rankTicks(1)).toEqual([1]);
  });
});
