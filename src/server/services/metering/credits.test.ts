// The period of a request: the calendar month (UTC), kept between calls of the same month.
import { describe, expect, it } from 'vitest';
import { periodOf } from './credits';

describe('periodOf', () => {
  it('is the UTC calendar month of the instant, whatever month was asked for before', () => {
    const cases: [string, string, string][] = [
      ['2026-01-31T23:59:59.999Z', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      ['2026-02-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', '2026-03-01T00:00:00.000Z'],
      ['2026-01-15T12:00:00.000Z', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      ['2026-12-31T23:00:00.000-02:00', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
      ['2026-12-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ];
    for (const [now, start, end] of cases) {
      const period = periodOf(new Date(now));
      expect([period.start.toISOString(), period.end.toISOString()]).toEqual([start, end]);
    }
  });

  it('gives the same month the same period, which no caller can change', () => {
    const first = periodOf(new Date('2026-03-02T10:00:00.000Z'));
    expect(periodOf(new Date('2026-03-30T10:00:00.000Z'))).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });
});
