// Demo data, seeded on first start and idempotent: a Pro account (demo@example.com) with three tracked apps and their
// competitors, and a second Pro account (other@example.com) with its own app, so that isolation can be seen.
import { randomBytes } from 'node:crypto';
import { db } from '@/server/db';
import type { Competitor, TrackedApp } from '@/generated/prisma/client';
import type { PlanTier } from '@/generated/prisma/enums';
import { hashPassword, verifyPassword } from '@/server/services/accounts/password';
import { addSimulatedStoreAccounts } from '@/server/services/store-accounts/simulated-store-account';
import { termKeyOf } from '@/server/services/apps/terms';

type DemoApp = Pick<
  TrackedApp,
  'id' | 'store' | 'storeId' | 'bundleId' | 'name' | 'developer' | 'category' | 'primaryCountry'
> & {
  keywords: string[];
  competitors: Pick<
    Competitor,
    'store' | 'storeId' | 'storeUrl' | 'name' | 'developer' | 'category' | 'rating' | 'ratingCount'
  >[];
};

interface DemoAccount {
  id: string;
  name: string;
  plan: PlanTier;
  email: string;
  userName: string;
  apps: DemoApp[];
}

export const DEMO_EMAIL = 'demo@example.com';
const OTHER_EMAIL = 'other@example.com';

export const DEMO_ACCOUNTS: DemoAccount[] = [
  {
    id: '5b0c3a4e-8f7d-4c61-9d2a-1e3f5a7b9c01',
    name: 'Calm Labs',
    plan: 'pro',
    email: DEMO_EMAIL,
    userName: 'Dana Demo',
    apps: [
      {
        id: '0d6c2f7a-4b1e-4e8a-9f3c-6a5b4c3d2e11',
        store: 'app_store',
        storeId: '1459969523',
        bundleId: 'com.calmlabs.breathe',
        name: 'Breathe: Sleep & Meditation',
        developer: 'Calm Labs Inc.',
        category: 'Health & Fitness',
        primaryCountry: 'US',
        keywords: ['meditation', 'sleep sounds', 'breathing exercises', 'anxiety relief', 'mindfulness'],
        competitors: [
          {
            store: 'app_store',
            storeId: '571800810',
            storeUrl: 'https://apps.apple.com/us/app/calm/id571800810',
            name: 'Calm',
            developer: 'Calm.com, Inc.',
            category: 'Health & Fitness',
            rating: 4.8,
            ratingCount: 1_950_000,
          },
          {
            store: 'app_store',
            storeId: '337472899',
            storeUrl: 'https://apps.apple.com/us/app/insight-timer/id337472899',
            name: 'Insight Timer',
            developer: 'Insight Network Inc',
            category: 'Health & Fitness',
            rating: 4.9,
            ratingCount: 420_000,
          },
        ],
      },
      {
        id: '1e7d3a8b-5c2f-4f9b-8a4d-7b6c5d4e3f22',
        store: 'google_play',
        storeId: 'com.calmlabs.breathe',
        bundleId: 'com.calmlabs.breathe',
        name: 'Breathe: Sleep & Meditation',
        developer: 'Calm Labs Inc.',
        category: 'Health & Fitness',
        primaryCountry: 'US',
        keywords: ['meditation app', 'sleep stories', 'calm music'],
        competitors: [
          {
            store: 'google_play',
            storeId: 'com.calm.android',
            storeUrl: 'https://play.google.com/store/apps/details?id=com.calm.android',
            name: 'Calm',
            developer: 'Calm.com, Inc.',
            category: 'Health & Fitness',
            rating: 4.8,
            ratingCount: 1_950_000,
          },
        ],
      },
      {
        id: '2f8e4b9c-6d3a-4a0c-9b5e-8c7d6e5f4a33',
        store: 'app_store',
        storeId: '1583324716',
        bundleId: 'com.calmlabs.tidybudget',
        name: 'Tidy Budget – Expense Tracker',
        developer: 'Calm Labs Inc.',
        category: 'Finance',
        primaryCountry: 'GB',
        keywords: ['budget planner', 'expense tracker', 'money manager'],
        competitors: [
          {
            store: 'app_store',
            storeId: '1010865877',
            storeUrl: 'https://apps.apple.com/gb/app/ynab/id1010865877',
            name: 'YNAB',
            developer: 'You Need A Budget LLC',
            category: 'Finance',
            rating: 4.8,
            ratingCount: 61_000,
          },
        ],
      },
    ],
  },
  {
    id: '6c1d4b5f-9a8e-4d72-8e3b-2f4a6b8c0d02',
    name: 'Northwind Games',
    plan: 'pro',
    email: OTHER_EMAIL,
    userName: 'Olly Other',
    apps: [
      {
        id: '3a9f5c0d-7e4b-4b1d-8c6f-9d8e7f6a5b44',
        store: 'app_store',
        storeId: '1620457791',
        bundleId: 'com.northwind.puzzleharbor',
        name: 'Puzzle Harbor: Match 3',
        developer: 'Northwind Games Ltd',
        category: 'Games',
        primaryCountry: 'US',
        keywords: ['match 3', 'puzzle games'],
        competitors: [
          {
            store: 'app_store',
            storeId: '553834731',
            storeUrl: 'https://apps.apple.com/us/app/candy-crush-saga/id553834731',
            name: 'Candy Crush Saga',
            developer: 'King',
            category: 'Games',
            rating: 4.7,
            ratingCount: 3_400_000,
          },
        ],
      },
    ],
  },
];

/** Creates what is missing; never overwrites what a user changed, except the demo password when told to. */
export async function seedDemoData(options: { password: string }): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    await db.account.upsert({
      where: { id: account.id },
      create: { id: account.id, name: account.name, plan: account.plan },
      update: {},
    });
    const user = await db.user.findUnique({ where: { email: account.email } });
    if (!user) {
      const passwordHash = await hashPassword(options.password);
      await db.$transaction(async (tx) => {
        const created = await tx.user.create({
          data: { email: account.email, name: account.userName, accountId: account.id, passwordHash },
          select: { id: true },
        });
        await tx.membership.create({ data: { accountId: account.id, userId: created.id, role: 'owner' } });
      });
    } else if (!(await verifyPassword(user.passwordHash, options.password))) {
      await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(options.password) } });
    }
    for (const { keywords, competitors, ...app } of account.apps) {
      await db.trackedApp.upsert({ where: { id: app.id }, create: { ...app, accountId: account.id }, update: {} });
      await db.trackedKeyword.createMany({
        data: keywords.map((term) => ({ appId: app.id, term, termKey: termKeyOf(term), country: app.primaryCountry })),
        skipDuplicates: true,
      });
      // Before the first refresh, which observes them with the app: their ranks come with its history.
      await db.competitor.createMany({
        data: competitors.map((competitor) => ({ appId: app.id, ...competitor })),
        skipDuplicates: true,
      });
    }
    // The demo apps are owned through simulated store accounts, so that replies to reviews can be shown; once: a
    // demo store account removed (its reviews stay) is not made again.
    const owned = await db.storeAccountReview.count({ where: { accountId: account.id } });
    if (!owned && !(await db.storeAccount.count({ where: { accountId: account.id } })))
      await db.$transaction((tx) =>
        addSimulatedStoreAccounts(
          tx,
          account.id,
          account.apps.map((app) => ({ id: app.id, store: app.store })),
          { purpose: 'demo' },
        ),
      );
  }
}

export function generateDemoPassword(): string {
  return `demo-${randomBytes(9).toString('base64url')}`;
}
