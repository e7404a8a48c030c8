// Deterministic randomness for the demo data: every value is a pure function of its keys (app, term, day…),
// so a refresh of any day gives the same numbers, and history can be generated for any range.
import { LRUCache } from 'lru-cache';
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

/** One deterministic draw in [0, 1): the first of a SeededRandom of the same keys. */
export function unit(...keys: (string | number)[]): number {
  return uniformFloat64(xoroshiro128plus(hash32(keys.join('|'))));
}

/**
 * What a pure function computed for a key, kept for the calls that ask again: a history is generated day by day, and
 * each day asks for the same terms' constants. At most `max` keys, so a long-lived process that meets ever more terms
 * keeps no more than that (lru-cache, as the project's other bounded caches).
 */
export function remembered<T extends {}>(max: number, compute: (key: string) => T): (key: string) => T {
  const values = new LRUCache<string, T>({ max, memoMethod: compute });
  return (key) => values.memo(key);
}

/** The last two knots drawn for each noise key: consecutive days share them (a knot's draw depends on the key and its index only). */
const knotsOf = remembered(20_000, () => ({ knot: Number.NaN, a: 0, b: 0 }));

/**
 * Smooth noise in [-1, 1] over days: random knots every `period` days, eased between them. Looks like a random
 * walk on a chart, but any day is computed without the days before it.
 */
export function smoothNoise(key: string, day: number, period = 7): number {
  const knot = Math.floor(day / period);
  const t = (day - knot * period) / period;
  const eased = t * t * (3 - 2 * t);
  const knots = knotsOf(key);
  if (knots.knot !== knot) {
    knots.knot = knot;
    knots.a = unit(key, knot) * 2 - 1;
    knots.b = unit(key, knot + 1) * 2 - 1;
  }
  return knots.a + (knots.b - knots.a) * eased;
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
