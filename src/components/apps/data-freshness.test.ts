// The app page's freshness label: the data's age, and a clear "stale" when the store failed or a day was missed.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataFreshness, type StorefrontHealth } from './data-freshness';

const now = new Date('2026-11-22T12:00:00.000Z');
const render = (lastObservedAt: string | null, storefronts: StorefrontHealth[]) =>
  renderToStaticMarkup(createElement(DataFreshness, { lastObservedAt, storefronts, now }));
const observed = '2026-11-22T09:00:00.000Z';

describe('DataFreshness', () => {
  it('says how old the data is', () => {
    const html = render(observed, [{ country: 'US', lastObservedAt: observed, lastError: null, lastErrorAt: null }]);
    expect(html).toContain('data-stale="false"');
    expect(html).toContain(`Observed <time dateTime="${observed}" title="2026-11-22 09:00 UTC">3 h ago</time>`);
    expect(html).not.toContain('Stale data');
  });

  it('labels the data stale when a storefront’s store failed after its last observation, naming the failure', () => {
    const html = render(observed, [
      {
        country: 'DE',
        lastObservedAt: '2026-11-20T09:00:00.000Z',
        lastError: 'search ‘yoga’ in DE: Google Play answered 503',
        lastErrorAt: '2026-11-22T10:00:00.000Z',
      },
      {
        country: 'US',
        lastObservedAt: observed,
        lastError: 'an older failure',
        lastErrorAt: '2026-11-21T10:00:00.000Z',
      },
    ]);
    expect(html).toContain('data-stale="true"');
    expect(html).toContain('Stale data');
    expect(html).toContain(
      'DE: the store failed at 2026-11-22 10:00 UTC (search ‘yoga’ in DE: Google Play answered 503); last observed 2026-11-20 09:00 UTC',
    );
    expect(html).not.toContain('an older failure');
  });

  it('labels the data stale after a day and a half without an observation, and says when nothing was observed yet', () => {
    expect(render('2026-11-20T23:00:00.000Z', [])).toContain('data-stale="true"');
    expect(render('2026-11-20T23:00:00.000Z', [])).toContain('37 h ago');
    expect(render(null, [])).toContain('Not observed in the store yet');
  });
});
