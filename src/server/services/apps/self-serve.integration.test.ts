// Tracking apps without an operator: adding one (caps under concurrency), its background backfill, its storefronts,
// removing it; and the trial a sign-up starts on. On a database of its own: it runs the backfill job, which takes any
// account's backfill, and holds back the others'; another file's app would see its backfill claimed.
import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { db } from '@/server/db';
import { createAccount } from '@/server/services/accounts/accounts';
import { changePlan } from '@/server/services/accounts/plan-changes';
import { currentMetadata } from '@/server/services/aso/metadata';
import { categoryRankHistory } from '@/server/services/aso/charts';
import { recordEvents } from '@/server/services/events/events';
import { MAX_BACKFILL_ATTEMPTS, runNextBackfill } from '@/server/services/ingest/backfill-worker';
import { claimNextBackfill } from '@/server/db/backfill-statements';
import { sandboxOf } from '@/server/services/accounts/sandboxes';
import { duringChange } from '../../../../test/concurrent-change';
import { makeAccount, storeAppOf } from '../../../../test/factories';
import { addApp, addKeywords, getApp, removeApp, searchStore } from './apps';
import { addStorefront } from './storefronts';

// Store ids unique within the run: two made in the same millisecond once collided, and the second added the first's app.
let made = 0;
const uniqueUrl = (name: string) =>
  `https://apps.apple.com/us/app/${name}/id${String(Date.now()).slice(-9)}${String(made++ % 1000).padStart(3, '0')}`;

/** Leaves `appId`'s backfill the only one the job can claim: earlier tests' are not this test's to run. */
async function onlyClaimable(appId: string) {
  await db.appBackfill.updateMany({
    where: { appId: { not: appId }, finishedAt: null },
    data: { claimedAt: new Date() },
  });
}

/** Runs `appId`'s backfill until it is done. */
async function backfilled(appId: string) {
  for (let round = 0; round < 10; round++) {
    const backfill = await db.appBackfill.findUniqueOrThrow({ where: { appId } });
    if (backfill.finishedAt) return backfill;
    await onlyClaimable(appId);
    await runNextBackfill();
  }
  throw new Error('backfill did not finish');
}

describe('adding an app', () => {
  it('is idempotent by store and store id, and its history loads in the background with progress', async () => {
    const owner = await makeAccount('solo');
    const storeUrl = uniqueUrl('pocket-calm');
    const { app, created } = await addApp(owner, { storeUrl });
    expect(created).toBe(true);
    expect(app).toMatchObject({
      name: 'Pocket Calm',
      primaryCountry: 'US',
      storefronts: ['US'],
      refreshedThrough: null,
      backfill: { daysTotal: 180, daysDone: 0, finishedAt: null },
    });
    expect((await addApp(owner, { storeUrl: storeUrl.replace('/us/', '/gb/') })).created).toBe(false);

    const done = await backfilled(app.id);
    expect(done).toMatchObject({ daysDone: 180, lastError: null, claimedAt: null });
    const ready = await getApp(owner.accountId, app.id);
    expect(ready.refreshedThrough).not.toBeNull();
    expect(await db.metadataSnapshot.count({ where: { storeAppId: await storeAppOf(app.id) } })).toBeGreaterThan(0);
    // A backfill is claimed once: nothing is left to run for this app.
    expect(await db.appBackfill.count({ where: { appId: app.id, finishedAt: null } })).toBe(0);
  }, 180_000);

  it('by name: the store’s search offers apps whose addresses add the same apps, the same on every search', async () => {
    const owner = await makeAccount('solo');
    const results = await searchStore({ term: 'sleep', country: 'GB' });
    expect(results.length).toBeGreaterThan(0);
    expect(await searchStore({ term: 'sleep', country: 'GB' })).toEqual(results);
    const { app } = await addApp(owner, { storeUrl: results[0]!.storeUrl, country: 'GB' }, { backfill: 'caller' });
    expect(app).toMatchObject({
      name: results[0]!.name,
      store: 'app_store',
      storeId: results[0]!.storeId,
      primaryCountry: 'GB',
    });
  });

  it('holds the plan’s cap on apps under concurrent additions, storing nothing past it', async () => {
    const owner = await makeAccount('solo');
    await addApp(owner, { storeUrl: uniqueUrl('first') }, { backfill: 'caller' });
    const attempts = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) =>
        addApp(owner, { storeUrl: uniqueUrl(`racer-${index}`) }, { backfill: 'caller' }),
      ),
    );
    expect(attempts.filter((attempt) => attempt.status === 'fulfilled')).toHaveLength(2);
    const refused = attempts.filter((attempt): attempt is PromiseRejectedResult => attempt.status === 'rejected');
    expect(refused.map((attempt) => attempt.reason)).toEqual(
      Array(4).fill(expect.objectContaining({ appCode: 'LIMIT_REACHED', extras: { cap: 'tracked-apps', limit: 3 } })),
    );
    expect(await db.trackedApp.count({ where: { accountId: owner.accountId } })).toBe(3);
  });

  it('a backfill that keeps failing stops after its attempts and leaves the app to the daily refresh', async () => {
    const owner = await makeAccount('solo');
    const { app } = await addApp(owner, { storeUrl: uniqueUrl('flaky') });
    // The store keeps failing.
    const failing = vi.spyOn(await import('@/server/services/ingest/refresh'), 'refreshApp');
    failing.mockRejectedValue(new Error('the store is down'));
    try {
      for (let attempt = 1; attempt <= MAX_BACKFILL_ATTEMPTS; attempt++) {
        await onlyClaimable(app.id);
        await runNextBackfill();
      }
    } finally {
      failing.mockRestore();
    }
    const backfill = await db.appBackfill.findUniqueOrThrow({ where: { appId: app.id } });
    expect(backfill).toMatchObject({
      attempts: MAX_BACKFILL_ATTEMPTS,
      lastError: 'the store is down',
      finishedAt: expect.any(Date),
    });
  });
});

describe('the backfill queue', () => {
  it('serves live apps before test sandboxes’, and every account’s next app before one account’s many', async () => {
    const now = new Date();
    // Earlier tests' entries are held back: the claims below are the order of this test's entries alone.
    await db.appBackfill.updateMany({ where: { finishedAt: null }, data: { claimedAt: now } });
    const [busy, other, tester] = await Promise.all([makeAccount('agency'), makeAccount('pro'), makeAccount('free')]);
    // Queued first: a test sandbox's sample apps, then three apps of one account, then one app of another.
    const sandboxId = await sandboxOf(tester.accountId);
    const sandboxApps = (await db.trackedApp.findMany({ where: { accountId: sandboxId }, select: { id: true } })).map(
      ({ id }) => id,
    );
    const busyApps: string[] = [];
    for (const name of ['first-of-many', 'second-of-many', 'third-of-many'])
      busyApps.push((await addApp(busy, { storeUrl: uniqueUrl(name) })).app.id);
    const otherApp = (await addApp(other, { storeUrl: uniqueUrl('only-one') })).app.id;
    const queued = [...sandboxApps, ...busyApps, otherApp];
    // In that order, a second apart: the queue's own clock is not this test's to race.
    for (const [index, appId] of queued.entries()) {
      await db.appBackfill.update({
        where: { appId },
        data: { createdAt: new Date(now.getTime() - (queued.length - index) * 1000), claimedAt: null },
      });
    }

    const claimed: string[] = [];
    for (let claim = await claimNextBackfill(now, 600); claim; claim = await claimNextBackfill(now, 600))
      claimed.push(claim.appId);
    expect(claimed).toEqual([busyApps[0], otherApp, busyApps[1], busyApps[2], ...sandboxApps]);
  });
});

describe('the backfill queue beside an app being removed', () => {
  it('skips the app rather than deadlock with its removal', async () => {
    const now = new Date();
    await db.appBackfill.updateMany({ where: { finishedAt: null }, data: { claimedAt: now } });
    const owner = await makeAccount('pro');
    const { app } = await addApp(owner, { storeUrl: uniqueUrl('removed-while-queued') });
    // The removal holds the app's row (removeApp), then deletes it and so its backfill; the claim, had it taken the
    // backfill first, would wait for the app's row (its update moves the app's data version) while the removal waits
    // for the backfill's.
    const claim = await duringChange(
      [{ text: 'SELECT 1 FROM tracked_apps WHERE id = $1 FOR UPDATE', values: [app.id] }],
      () => claimNextBackfill(now, 600),
      (removal) => removal.query('DELETE FROM tracked_apps WHERE id = $1', [app.id]).then(() => undefined),
    );
    expect(claim).toEqual({ status: 'fulfilled', value: undefined });
    expect(await db.trackedApp.count({ where: { id: app.id } })).toBe(0);
  });
});

describe('storefronts', () => {
  it('a keyword in a new storefront tracks the app there, with its listing and chart history at once', async () => {
    const owner = await makeAccount('pro');
    const { app } = await addApp(owner, { storeUrl: uniqueUrl('storefronts') });
    await backfilled(app.id);
    await addKeywords(owner.accountId, { appId: app.id, terms: ['calm'], country: 'GB' });
    expect((await getApp(owner.accountId, app.id)).storefronts).toEqual(['GB', 'US']);
    expect(await currentMetadata(owner.accountId, { appId: app.id, country: 'GB' })).toMatchObject({
      title: expect.any(String),
    });
    const chart = await categoryRankHistory(owner.accountId, { appId: app.id, country: 'GB', days: 30 });
    expect(chart.points.some((point) => point.rank !== null)).toBe(true);

    await addStorefront(owner.accountId, { appId: app.id, country: 'DE' });
    expect((await getApp(owner.accountId, app.id)).storefronts).toEqual(['DE', 'GB', 'US']);
    expect(await currentMetadata(owner.accountId, { appId: app.id, country: 'DE' })).toMatchObject({
      title: expect.any(String),
    });
  }, 180_000);
});

describe('removing an app', () => {
  it('deletes it with its data and its undelivered events; another account cannot', async () => {
    const owner = await makeAccount('pro');
    const other = await makeAccount('pro');
    const { app } = await addApp(owner, { storeUrl: uniqueUrl('removed') }, { backfill: 'caller' });
    await addKeywords(owner.accountId, { appId: app.id, terms: ['gone'] });
    await recordEvents([
      {
        accountId: owner.accountId,
        appId: app.id,
        type: 'review.created',
        data: { appId: app.id, reviewId: randomUUID(), rating: 4, country: 'US' },
      },
    ]);
    await expect(removeApp(other.accountId, app.id)).rejects.toMatchObject({ appCode: 'NOT_FOUND' });
    expect(await removeApp(owner.accountId, app.id)).toMatchObject({ removed: true, appId: app.id });
    expect(await db.trackedApp.count({ where: { id: app.id } })).toBe(0);
    expect(await db.domainEvent.count({ where: { appId: app.id } })).toBe(0);
  });
});

describe('removing an app while its history loads', () => {
  it('ends the backfill quietly, whenever the removal lands', async () => {
    for (const delayMs of Array.from({ length: 12 }, (_, index) => index * 75)) {
      const owner = await makeAccount('pro');
      const { app } = await addApp(owner, { storeUrl: uniqueUrl(`removed-while-loading-${delayMs}`) });
      await onlyClaimable(app.id);
      const running = runNextBackfill();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await removeApp(owner.accountId, app.id);
      // Claimed before the removal, it ran and ended quietly (true); removed first, there was nothing to claim (false).
      // Either way it does not throw, and it leaves nothing behind.
      await expect(running).resolves.toBeTypeOf('boolean');
      expect(await db.appBackfill.count({ where: { appId: app.id } })).toBe(0);
      // What it observed before the removal stays: store facts, shared by whoever follows the app. Nothing of the
      // account's app does, no event of it among them.
      expect(await db.trackedApp.count({ where: { id: app.id } })).toBe(0);
      expect(await db.domainEvent.count({ where: { appId: app.id } })).toBe(0);
    }
  }, 180_000);
});

describe('the trial', () => {
  it('a sign-up starts on the configured trial; off, on Free; a chosen plan ends it', async () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    const trial = await createAccount(
      { email: `trial-${Date.now()}@example.test`, password: 'correct horse battery', plan: 'free' },
      { withTrial: true, now },
    );
    expect(await db.account.findUniqueOrThrow({ where: { id: trial.accountId } })).toMatchObject({
      plan: 'solo',
      trialCredits: 100,
      trialEndsAt: new Date('2026-12-07T12:00:00.000Z'),
    });

    vi.stubEnv('TRIAL_TIER', 'pro');
    vi.stubEnv('TRIAL_DAYS', '7');
    vi.stubEnv('TRIAL_CREDITS', '250');
    const pro = await createAccount(
      { email: `trial-pro-${Date.now()}@example.test`, password: 'correct horse battery', plan: 'free' },
      { withTrial: true, now },
    );
    expect(await db.account.findUniqueOrThrow({ where: { id: pro.accountId } })).toMatchObject({
      plan: 'pro',
      trialCredits: 250,
      trialEndsAt: new Date('2026-11-30T12:00:00.000Z'),
    });
    vi.stubEnv('TRIAL_TIER', 'off');
    const none = await createAccount(
      { email: `no-trial-${Date.now()}@example.test`, password: 'correct horse battery', plan: 'free' },
      { withTrial: true, now },
    );
    expect(await db.account.findUniqueOrThrow({ where: { id: none.accountId } })).toMatchObject({
      plan: 'free',
      trialEndsAt: null,
    });
    vi.unstubAllEnvs();

    await db.$transaction((tx) =>
      changePlan(tx, { accountId: trial.accountId, to: 'business', reason: 'operator', now }),
    );
    expect(await db.account.findUniqueOrThrow({ where: { id: trial.accountId } })).toMatchObject({
      plan: 'business',
      trialEndsAt: null,
      trialCredits: null,
    });
    const changes = await db.planChange.findMany({ where: { accountId: trial.accountId }, orderBy: { id: 'asc' } });
    expect(changes.map((change) => [change.fromPlan, change.toPlan, change.reason])).toEqual([
      [null, 'solo', 'trial_started'],
      ['solo', 'business', 'operator'],
    ]);
  });
});
