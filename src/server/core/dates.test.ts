import { describe, expect, it } from 'vitest';
import { isoDay } from './dates';

describe('isoDay', () => {
  it('is the UTC day of any instant, whatever day it was asked before', () => {
    const instants = [
      '2026-11-26T00:00:00.000Z',
      '2026-11-26T23:59:59.999Z',
      '2026-11-27T00:00:00.000Z',
      '2026-11-26T12:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2024-02-29T10:00:00.000Z',
      '2026-11-26T05:00:00.000Z',
    ];
    for (const instant of [...instants, ...instants.reverse()])
      expect(isoDay(new Date(instant)), instant).toBe(instant.slice(0, 10));
  });

  it("is right when two days alternate, as today and the month's first do on a request", () => {
    for (let turn = 0; turn < 3; turn++) {
      for (const instant of [
        '2026-11-01T00:00:00.000Z',
        '2026-11-26T08:00:00.000Z',
        '2026-12-01T00:00:00.000Z',
        '2026-11-26T09:00:00.000Z',
      ]) {
        expect(isoDay(new Date(instant)), instant).toBe(instant.slice(0, 10));
      }
    }
  });

  it('refuses an invalid date, as toISOString does', () => {
    expect(() => isoDay(new Date(Number.NaN))).toThrow(RangeError);
    expect(isoDay(new Date('2026-11-26T08:00:00Z'))).toBe('2026-11-26');
  });
});
