import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DemoProvider } from './demo-provider';
import type { ObservationRequest, ProviderApp } from '../provider';

const app = {
  store: 'app_store',
  storeId: '1459969523',
  bundleId: 'com.calmlabs.breathe',
  name: 'Breathe: Sleep & Meditation',
  developer: 'Calm Labs Inc.',
  category: 'Health & Fitness',
  primaryCountry: 'US',
} as ProviderApp;
const request = (day: Date): ObservationRequest =>
  ({
    day,
    countries: ['US', 'DE'],
    scope: 'full',
    trackedTerms: ['US', 'DE'].flatMap((country) =>
      ['sleep sounds', 'Schlaf Musik', 'méditation'].map((term) => ({ country, term })),
    ),
    competitors: [{ store: 'app_store', storeId: '571800810' }],
  }) as ObservationRequest;
const dayOf = (offset: number) => new Date(Date.UTC(2026, 5, 1) + offset * 86_400_000);

describe('DemoProvider', () => {
  // A refresh generates a stored day again, so the numbers of a day must not change from one version to the next:
  // a change here changes every demo database's history under it.
  it('generates the same data as it always has', async () => {
    const provider = new DemoProvider();
    const hash = createHash('sha256');
    for (const offset of [0, 1, 2, 13, 14, 29, 30, 31]) {
      // The numbers, not how each rank was come upon (`discovered`, told apart since the ranks are stored once per store
      // app), nor the search answers the demo never has (its ranks are each app's own, not places in a store's list).
      const observed = await provider.observe(app, request(dayOf(offset)));
      expect(observed.searchAnswers).toEqual([]);
      hash.update(
        JSON.stringify(observed, (key, value: unknown) =>
          key === 'discovered' || key === 'searchAnswers' ? undefined : value,
        ),
      );
      hash.update(JSON.stringify(await provider.research('sleep sounds', 'DE', dayOf(offset))));
    }
    expect(hash.digest('hex')).toBe('b31fca089f1a1a207b79daa347179352e24ee5a5b595226dd56f2af3ad6775ee');
  });

  it('tells the ranks it found scanning the category’s vocabulary from those it was only asked about', async () => {
    const observed = await new DemoProvider().observe(app, request(dayOf(0)));
    const discovered = observed.keywordRanks.filter((entry) => entry.discovered);
    expect(discovered.length).toBeGreaterThan(10);
    expect(discovered.every((entry) => entry.rank !== null)).toBe(true);
    // Asked-about terms outside the vocabulary are never discovered; a vocabulary term is, asked about or not.
    expect(
      observed.keywordRanks
        .filter((entry) => ['Schlaf Musik', 'méditation'].includes(entry.term))
        .every((entry) => !entry.discovered),
    ).toBe(true);
    const term = discovered.find((entry) => entry.country === 'US')!.term;
    const asked = await new DemoProvider().observe(app, {
      ...request(dayOf(0)),
      trackedTerms: [{ country: 'US', term }],
    });
    expect(asked.keywordRanks.find((entry) => entry.country === 'US' && entry.term === term)).toMatchObject({
      discovered: true,
    });
  });

  it('observes a day the same whether it is asked alone or after a history of other days', async () => {
    const other = { ...app, storeId: `${Date.now()}` };
    const first = await new DemoProvider().observe(other, request(dayOf(15)));
    const provider = new DemoProvider();
    for (let offset = 40; offset >= -10; offset--) await provider.observe(other, request(dayOf(offset)));
    expect(await provider.observe(other, request(dayOf(15)))).toEqual(first);
  });
});
