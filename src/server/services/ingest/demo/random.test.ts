import { describe, expect, it } from 'vitest';
import { remembered, smoothNoise, unit } from './random';

/** smoothNoise as defined, every draw made afresh. */
function noiseAsDefined(key: string, day: number, period: number): number {
  const knot = Math.floor(day / period);
  const t = (day - knot * period) / period;
  const a = unit(key, knot) * 2 - 1;
  const b = unit(key, knot + 1) * 2 - 1;
  return a + (b - a) * (t * t * (3 - 2 * t));
}

describe('smoothNoise', () => {
  it('gives any day the same value whatever was asked before it, for each period of a key', () => {
    const key = `noise-test|${Math.random()}`;
    const days = [
      ...Array.from({ length: 40 }, (_, i) => 20_000 + i),
      ...Array.from({ length: 40 }, (_, i) => 20_039 - i),
      19_000,
      20_500,
      20_001,
    ];
    for (const day of days) {
      for (const period of [2, 7, 30]) expect(smoothNoise(key, day, period)).toBe(noiseAsDefined(key, day, period));
    }
  });
});

describe('remembered', () => {
  it('computes a key once, and forgets the least recently used one past its limit', () => {
    const computed: string[] = [];
    const lengthOf = remembered(2, (key) => {
      computed.push(key);
      return key.length;
    });
    expect([lengthOf('a'), lengthOf('bb'), lengthOf('a'), lengthOf('bb')]).toEqual([1, 2, 1, 2]);
    expect(computed).toEqual(['a', 'bb']);
    expect(lengthOf('ccc')).toBe(3);
    expect(lengthOf('a')).toBe(1);
    expect(computed).toEqual(['a', 'bb', 'ccc', 'a']);
  });
});
