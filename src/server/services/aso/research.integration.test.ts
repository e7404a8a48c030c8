// Live research shares the store's answer for a term for RESEARCH_MAX_AGE_SECONDS, asking the store once per term.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataProvider } from '@/server/services/ingest/providers';
import { makeAccount, makeApp } from '../../../../test/factories';
import { researchFreshness, researchFreshUntil, researchKeyword, researchMaxAgeSeconds, resetResearchCache } from './research';

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
    store.mockRejectedValueOnce(new Error('store unavailable'));
    await expect(research('yoga')).rejects.toThrow('store unavailable');
    expect((await research('yoga')).topApps).toHaveLength(10);
    expect(store).toHaveBeenCalledTimes(2);
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
    await expect(researchKeyword(stranger.accountId, { appId: app.id, term: 'sleep', country: 'US' })).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    await expect(researchKeyword(stranger.accountId, { appId: randomUUID(), term: 'sleep', country: 'US' })).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
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
