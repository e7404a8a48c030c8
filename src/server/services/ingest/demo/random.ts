// Deterministic randomness for the demo data: every value is a pure function of its keys (app, term, day…),
// so a refresh of any day gives the same numbers, and history can be generated for any range.
import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

/** FNV-1a, 32 bits. */
export function hash32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export class SeededRandom {
  private readonly generator;
  constructor(...keys: (string | number)[]) {
    this.generator = xoroshiro128plus(hash32(keys.join('|')));
  }
  /** [0, 1) */
  next(): number {
    return uniformFloat64(this.generator);
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/** One deterministic draw in [0, 1). */
export function unit(...keys: (string | number)[]): number {
  return new SeededRandom(...keys).next();
}

/**
 * Smooth noise in [-1, 1] over days: random knots every `period` days, eased between them. Looks like a random
 * walk on a chart, but any day is computed without the days before it.
 */
export function smoothNoise(key: string, day: number, period = 7): number {
  const knot = Math.floor(day / period);
  const t = (day - knot * period) / period;
  const eased = t * t * (3 - 2 * t);
  const a = unit(key, knot) * 2 - 1;
  const b = unit(key, knot + 1) * 2 - 1;
  return a + (b - a) * eased;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Fisher–Yates with a seeded source. */
export function shuffled<T>(items: readonly T[], random: SeededRandom): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
