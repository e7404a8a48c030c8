import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '@/server/db';
import { makeAsoApp } from '../../../../test/aso-fixture';
import { parseStoreUrl } from '@/server/domain/store-urls';

describe('store URLs', () => {
  it('parses App Store and Google Play addresses', () => {
    expect(parseStoreUrl('https://apps.apple.com/us/app/calm/id571800810')).toMatchObject({ store: 'app_store', storeId: '571800810', country: 'US', slug: 'calm' });
    expect(parseStoreUrl('https://apps.apple.com/GB/app/id571800810?platform=iphone')).toMatchObject({ store: 'app_store', storeId: '571800810', country: 'GB', slug: null });
    expect(parseStoreUrl('https://play.google.com/store/apps/details?id=com.calm.android&hl=en')).toMatchObject({
      store: 'google_play',
      storeId: 'com.calm.android',
      canonicalUrl: 'https://play.google.com/store/apps/details?id=com.calm.android',
    });
  });

  it('refuses anything else', () => {
    for (const url of [
      'http://apps.apple.com/us/app/calm/id571800810',
      'https://apps.apple.com.evil.test/us/app/calm/id571800810',
      'https://apps.apple.com/zz/app/calm/id571800810',
      'https://apps.apple.com/us/app/calm/571800810',
      'https://apps.apple.com/us/developer/calm/id571800810',
      'https://play.google.com/store/apps/details',
      'https://play.google.com/store/apps/details?id=not a package',
      'https://play.google.com/store/apps/dev?id=123',
      'https://user:pw@apps.apple.com/us/app/calm/id571800810',
      'javascript:alert(1)',
      'calm',
      '',
    ]) {
      expect(parseStoreUrl(url), url).toBeNull();
    }
  });
});

describe('competitors', () => {
  let fixture: Awaited<ReturnType<typeof makeAsoApp>>;
  beforeAll(async () => {
    fixture = await makeAsoApp({ storeId: '700000010', terms: ['sleep'] });
  });

  it('adds a competitor once, whatever the form of its URL, and lists it', async () => {
    const id = fixture.app.id;
    const first = await fixture.caller.competitors.add({ id, storeUrl: 'https://apps.apple.com/us/app/calm-sleep-meditation/id571800810' });
    expect(first.created).toBe(true);
    expect(first.competitor).toMatchObject({ store: 'app_store', storeId: '571800810', name: 'Calm Sleep Meditation' });
    const again = await fixture.caller.competitors.add({ id, storeUrl: 'https://apps.apple.com/gb/app/id571800810' });
    expect(again).toEqual({ competitor: first.competitor, created: false });
    const play = await fixture.caller.competitors.add({ id, storeUrl: 'https://play.google.com/store/apps/details?id=com.calm.android' });
    expect(play.created).toBe(true);
    expect((await fixture.caller.competitors.list({ id })).map((c) => c.storeId)).toEqual(['571800810', 'com.calm.android']);
    expect(await db.domainEvent.count({ where: { appId: id, type: 'competitor.added' } })).toBe(2);
  });

  it('refuses an invalid URL and the app itself', async () => {
    const id = fixture.app.id;
    await expect(fixture.caller.competitors.add({ id, storeUrl: 'https://example.com/app' })).rejects.toMatchObject({ cause: { appCode: 'VALIDATION_ERROR' } });
    await expect(fixture.caller.competitors.add({ id, storeUrl: 'https://apps.apple.com/us/app/breathe/id700000010' })).rejects.toMatchObject({
      cause: { appCode: 'VALIDATION_ERROR' },
    });
  });
});
