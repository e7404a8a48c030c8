// Live research shares the store's answer for a term for RESEARCH_MAX_AGE_SECONDS, asking the store once per term.
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { dataProvider } from '@/server/services/ingest/providers';
import { makeAccount, makeApp } from '../../../../test/factories';
import {
  researchFreshness,
  researchFreshUntil,
  researchKeyword,
  researchMaxAgeSeconds,
  resetResearchCache,
} from './research';

// The files of a worker share their modules (vitest.config.ts): another file's research is forgotten first.
beforeEach(() => resetResearchCache());

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  vi.useRealTimers();
  resetResearchCache();
});

async function setup() {
  const owner = await makeAccount('pro');
  const app = await makeApp(owner.accountId);
  const store = vi.spyOn(dataProvider(), 'research');
  const research = (term: string, country = 'US') => researchKeyword(owner.accountId, { appId: app.id, term, country });
  return { owner, app, store, research };
}

describe('the store’s answer for a term', () => {
  it('is asked once for concurrent calls and every spelling of the term, then reused', async () => {
    const { store, research } = await setup();
    const answers = await Promise.all([research('sleep sounds'), research('Sleep  Sounds'), research('SLEEP SOUNDS')]);
    expect(store).toHaveBeenCalledTimes(1);
    expect(new Set(answers.map((answer) => answer.observedAt.getTime())).size).toBe(1);
    // Each answer names the term as it was asked.
    expect(answers.map((answer) => answer.term)).toEqual(['sleep sounds', 'Sleep  Sounds', 'SLEEP SOUNDS']);
    expect(answers[1]!.topApps).toEqual(answers[0]!.topApps);
    await research('sleep sounds');
    expect(store).toHaveBeenCalledTimes(1);
    // Another storefront, another term: asked.
    await research('sleep sounds', 'GB');
    await research('white noise');
    expect(store).toHaveBeenCalledTimes(3);
  });

  it('is asked again once it is older than RESEARCH_MAX_AGE_SECONDS (default 300)', async () => {
    expect(researchMaxAgeSeconds()).toBe(300);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-15T10:00:00.000Z'));
    const { store, research } = await setup();
    const first = await research('meditation');
    expect(first.observedAt.toISOString()).toBe('2026-03-15T10:00:00.000Z');
    expect(researchFreshUntil(first.observedAt).toISOString()).toBe('2026-03-15T10:05:00.000Z');
    vi.setSystemTime(new Date('2026-03-15T10:04:59.000Z'));
    expect((await research('meditation')).observedAt).toEqual(first.observedAt);
    vi.setSystemTime(new Date('2026-03-15T10:05:01.000Z'));
    expect((await research('meditation')).observedAt.toISOString()).toBe('2026-03-15T10:05:01.000Z');
    expect(store).toHaveBeenCalledTimes(2);
  });

  it('is not kept when the store fails: the next call asks again', async () => {
    const { store, research } = await setup();
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    store.mockRejectedValueOnce(new Error('store unavailable'));
    // Never observed, nothing stored: 503 store-unavailable, to retry after Retry-After.
    const term = `yoga ${randomUUID().slice(0, 8)}`;
    await expect(research(term)).rejects.toMatchObject({
      appCode: 'STORE_UNAVAILABLE',
      headers: { 'Retry-After': '60' },
    });
    expect((await research(term)).topApps).toHaveLength(10);
    expect(store).toHaveBeenCalledTimes(2);
  });

  it('while the store fails, is its last answer, with the time it was read', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-03-15T10:00:00.000Z'));
    const { store, research } = await setup();
    const live = await research('mindful walking');
    vi.setSystemTime(new Date('2026-03-15T11:00:00.000Z'));
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    store.mockRejectedValue(new Error('Google Play answered 503'));
    const stale = await research('mindful walking');
    expect(stale).toEqual(live);
    expect(stale.observedAt.toISOString()).toBe('2026-03-15T10:00:00.000Z');
  });

  it('while the store fails, answers the refresh’s last stored metrics of the term, dated by their day, without top apps', async () => {
    const { app, store, research } = await setup();
    await db.keywordMetric.create({
      data: {
        store: app.store,
        country: 'US',
        termKey: 'deep focus',
        date: new Date('2026-03-10T00:00:00Z'),
        volume: 1234,
        difficulty: 56,
      },
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    store.mockRejectedValue(new Error('timed out'));
    expect(await research('Deep Focus')).toMatchObject({
      term: 'Deep Focus',
      volume: 1234,
      difficulty: 56,
      topApps: [],
      observedAt: new Date('2026-03-10T00:00:00Z'),
    });
  });

  it('is asked at every call with RESEARCH_MAX_AGE_SECONDS=0, and its answer is not live past its reading', async () => {
    vi.stubEnv('RESEARCH_MAX_AGE_SECONDS', '0');
    const { store, research } = await setup();
    const answer = await research('focus');
    await research('focus');
    expect(store).toHaveBeenCalledTimes(2);
    expect(researchFreshUntil(answer.observedAt)).toEqual(answer.observedAt);
  });

  it('comes with a 404 for an app of another account or an unknown one', async () => {
    const { app } = await setup();
    const stranger = await makeAccount('pro');
    await expect(
      researchKeyword(stranger.accountId, { appId: app.id, term: 'sleep', country: 'US' }),
    ).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(
      researchKeyword(stranger.accountId, { appId: randomUUID(), term: 'sleep', country: 'US' }),
    ).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
  });

  it('is described as RESEARCH_MAX_AGE_SECONDS sets it', () => {
    expect(researchFreshness()).toMatch(/^Live means at most 5 minutes old: /);
    vi.stubEnv('RESEARCH_MAX_AGE_SECONDS', '90');
    expect(researchFreshness()).toMatch(/^Live means at most 90 seconds old: /);
    vi.stubEnv('RESEARCH_MAX_AGE_SECONDS', '0');
    expect(researchFreshness()).toBe('The store is read at every call (`observedAt` says when).');
    // Not a guess: a value that is not an amount stops the process, naming the variable.
    for (const wrong of ['-5', 'soon']) {
      vi.stubEnv('RESEARCH_MAX_AGE_SECONDS', wrong);
      expect(() => researchFreshness()).toThrow(/RESEARCH_MAX_AGE_SECONDS=/);
    }
  });
});
