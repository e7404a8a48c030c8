import { describe, expect, it } from 'vitest';
import { groupCommit } from './group-commit';

/** A statement that answers each ask with its double, records its batches, and refuses the ask 13. */
function doubling(maxAsks: number) {
  const batches: number[][] = [];
  const ask = groupCommit(async (asks: number[]) => {
    batches.push(asks);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (asks.includes(13)) throw new Error('13 refused');
    return asks.map((each) => each * 2);
  }, maxAsks);
  return { ask, batches };
}

describe('group commit', () => {
  it('sends the first ask at once and those that arrive meanwhile together, each answered with its own', async () => {
    const { ask, batches } = doubling(10);
    expect(await Promise.all([1, 2, 3, 4].map(ask))).toEqual([2, 4, 6, 8]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
    // Idle again: the next ask goes at once, alone.
    expect(await ask(5)).toBe(10);
    expect(batches.at(-1)).toEqual([5]);
  });

  it('carries at most maxAsks in a batch', async () => {
    const { ask, batches } = doubling(2);
    expect(await Promise.all([1, 2, 3, 4, 5].map(ask))).toEqual([2, 4, 6, 8, 10]);
    expect(batches).toEqual([[1], [2, 3], [4, 5]]);
  });

  it('fails only the ask that fails its batch, after running the others again alone', async () => {
    const { ask, batches } = doubling(10);
    const settled = await Promise.allSettled([1, 2, 13, 4].map(ask));
    expect(settled.map((each) => (each.status === 'fulfilled' ? each.value : (each.reason as Error).message))).toEqual([
      2,
      4,
      '13 refused',
      8,
    ]);
    expect(batches).toEqual([[1], [2, 13, 4], [2], [13], [4]]);
  });
});
