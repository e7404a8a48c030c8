// A tool result's text is a short summary of its structured content, never the JSON again.
import { describe, expect, it } from 'vitest';
import { resultSummary } from './result-summary';

describe('resultSummary', () => {
  it('counts a list and names its first items by their naming member', () => {
    const items = Array.from({ length: 7 }, (_, n) => ({ keywordId: `k${n}`, term: `term ${n}`, rank: n + 1 }));
    const text = resultSummary('List tracked keywords', {
      items,
      freshness: { storefront: 'US', dataThrough: '2026-11-28', limits: [] },
    });
    expect(text.split('\n')).toEqual([
      'List tracked keywords: 7 items.',
      '- term term 0, keywordId k0, rank 1',
      '- term term 1, keywordId k1, rank 2',
      '- term term 2, keywordId k2, rank 3',
      '- term term 3, keywordId k3, rank 4',
      '- term term 4, keywordId k4, rank 5',
      '- … 2 more',
      'Data through 2026-11-28 in US.',
      'The whole answer is the structured content.',
    ]);
  });

  it('gives an object’s scalar members, its lists’ sizes, and cuts long text', () => {
    const text = resultSummary('Get a tracked app', {
      id: 'a1',
      name: 'x'.repeat(80),
      storefronts: ['US', 'GB'],
      backfill: null,
      freshness: { storefront: null, dataThrough: null, limits: [] },
    });
    expect(text).toBe(
      `Get a tracked app. id: a1; name: ${'x'.repeat(59)}…; storefronts: 2 items; backfill: null.\nThe whole answer is the structured content.`,
    );
  });
});
