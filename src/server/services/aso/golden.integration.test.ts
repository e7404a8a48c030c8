// Golden file: every deterministic endpoint's answer for the demo app on 2026-06-30. Produced by the code under
// test and reviewed; a change to the generator or a formula shows up here as a diff to review again.
import { expect, it } from 'vitest';
import { makeAsoApp } from '../../../../test/aso-fixture';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

it('answers the same numbers as the reviewed golden file', async () => {
  const { app, caller } = await makeAsoApp({ storeId: '1459969523' });
  const id = app.id;
  // A competitor: its ranks come with the keyword history.
  await caller.competitors.add({ id, storeUrl: 'https://apps.apple.com/us/app/calm/id571800810' });
  const keywords = await caller.keywords.list({ id });
  const first = keywords[0]!;
  const answers = {
    keywords,
    keywords30d: await caller.keywords.list({ id, rankWindow: '30d' }),
    history: await caller.keywords.history({ id, keywordId: first.keywordId, days: 14 }),
    metricsHistory: await caller.keywords.metricsHistory({ id, keywordId: first.keywordId, days: 14 }),
    keywordSpy: await caller.apps.keywordSpy({ id }),
    opportunities: await caller.apps.opportunities({ id, limit: 10 }),
    asoScore: await caller.apps.asoScore({ id }),
    categoryRank: await caller.apps.categoryRank({ id, days: 14 }),
    ratingHistoryTail: (await caller.apps.ratingHistory({ id })).points.slice(-7),
    reviews: await caller.reviews.list({ id, pageSize: 5 }),
    insights: await caller.reviews.insights({ id }),
    metadata: await caller.metadata.get({ id }),
    changelog: (await caller.metadata.changelog({ id })).changes.slice(0, 12),
  };
  // Ids are random per run; everything else is a function of the app and the day.
  const ids = new Map<string, string>();
  const text = JSON.stringify(answers, null, 2).replace(UUID, (uuid) => {
    if (!ids.has(uuid)) ids.set(uuid, `<id-${ids.size + 1}>`);
    return ids.get(uuid)!;
  });
  await expect(text + '\n').toMatchFileSnapshot('../../../../test/golden/breathe-us-2026-06-30.json');
});
