// The migrations that moved store facts from each account's apps to the store apps (store_apps, app_ranks,
// store_app_charts_and_ratings, store_app_listings, store_app_reviews), applied to a database holding what they move:
// two accounts tracking one store app over the same days, a competitor that is that store app, and a sandbox's copy of
// it. Every fact each account read before, it reads after; where both stored one, the first follower's.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from './migrate';

const MIGRATIONS = path.resolve(import.meta.dirname, '../../../prisma/migrations');
const FIRST_MOVED = '20261128052802_store_apps';

const maintenanceUrl = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: '/postgres' }).toString();
const name = `store_facts_${randomBytes(6).toString('hex')}`;
const url = Object.assign(new URL(process.env.DATABASE_URL!), { pathname: `/${name}` }).toString();
const before = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
const client = new pg.Client({ connectionString: url });

beforeAll(async () => {
  const maintenance = new pg.Client({ connectionString: maintenanceUrl });
  await maintenance.connect();
  await maintenance.query(`CREATE DATABASE ${name}`);
  await maintenance.end();
  for (const folder of readdirSync(MIGRATIONS)) {
    if (folder < FIRST_MOVED && folder !== 'migration_lock.toml')
      cpSync(path.join(MIGRATIONS, folder), path.join(before, folder), { recursive: true });
  }
  await applyMigrations(url, () => {}, before);
  await client.connect();
});

afterAll(async () => {
  await client.end();
  const maintenance = new pg.Client({ connectionString: maintenanceUrl });
  await maintenance.connect();
  await maintenance.query(`DROP DATABASE ${name} WITH (FORCE)`);
  await maintenance.end();
  rmSync(before, { recursive: true, force: true });
});

const query = async <T extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
  (await client.query<T>(text, values)).rows;

async function account(sandboxOf: string | null = null): Promise<string> {
  const [row] = await query<{ id: string }>(
    `INSERT INTO accounts (id, name, plan, live_account_id) VALUES (gen_random_uuid(), 'Account', $2::"PlanTier", $1::uuid) RETURNING id::text`,
    [sandboxOf, sandboxOf ? 'test' : 'pro'],
  );
  return row!.id;
}

async function app(accountId: string, storeId: string, createdAt: string): Promise<string> {
  const [row] = await query<{ id: string }>(
    `INSERT INTO tracked_apps (id, account_id, store, store_id, bundle_id, name, developer, category, primary_country, created_at)
     VALUES (gen_random_uuid(), $1::uuid, 'app_store', $2, 'com.example', 'Example', 'Developer', 'Utilities', 'US', $3::timestamptz) RETURNING id::text`,
    [accountId, storeId, createdAt],
  );
  return row!.id;
}

describe('moving store facts to the store apps', () => {
  it('keeps every rank, chart place, rating, listing and review each account read, once per store app, the first follower’s where two observed a day', async () => {
    const [first, second] = [await account(), await account()];
    const sandbox = await account(first);
    const older = await app(first, '111', '2026-01-01T00:00:00Z');
    const newer = await app(second, '111', '2026-02-01T00:00:00Z');
    const test = await app(sandbox, '111', '2026-03-01T00:00:00Z');
    const follower = await app(second, '222', '2026-02-02T00:00:00Z');
    await query(
      `INSERT INTO tracked_keywords (id, app_id, term, term_key, country) VALUES (gen_random_uuid(), $1::uuid, 'Sleep', 'sleep', 'US'), (gen_random_uuid(), $2::uuid, 'sleep', 'sleep', 'US')`,
      [older, follower],
    );
    const ranks = [
      // Both accounts observed 'sleep' on the 1st: the older app's rank stands. 'zen' was only discovered by the newer.
      [older, 'sleep', 'Sleep', '2026-06-01', 4],
      [newer, 'sleep', 'sleep', '2026-06-01', 9],
      [newer, 'zen', 'zen', '2026-06-01', 30],
      [older, 'sleep', 'Sleep', '2026-06-02', null],
      [newer, 'sleep', 'sleep', '2026-07-15', 12],
      [test, 'sleep', 'Sleep', '2026-06-01', 77],
    ] as const;
    for (const [appId, termKey, term, date, rank] of ranks) {
      await query(
        `INSERT INTO keyword_ranks (app_id, country, term_key, term, date, rank) VALUES ($1::uuid, 'US', $2, $3, $4::date, $5)`,
        [appId, termKey, term, date, rank],
      );
    }
    // The follower's competitor is the store app '111': its ranks for 'sleep' on the 1st (seen already) and the 3rd.
    const [competitor] = await query<{ id: string }>(
      `INSERT INTO competitors (id, app_id, store_url, store, store_id) VALUES (gen_random_uuid(), $1::uuid, 'https://apps.apple.com/us/app/id111', 'app_store', '111') RETURNING id::text`,
      [follower],
    );
    for (const [date, rank] of [
      ['2026-06-01', 5],
      ['2026-06-03', 6],
    ] as const) {
      await query(
        `INSERT INTO competitor_ranks (competitor_id, app_id, country, term_key, date, rank) VALUES ($1::uuid, $2::uuid, 'US', 'sleep', $3::date, $4)`,
        [competitor!.id, follower, date, rank],
      );
    }

    // Chart places and ratings, observed by both accounts on the 1st: the older app's stand.
    for (const [appId, date, rank, average] of [
      [older, '2026-06-01', 12, 4.5],
      [newer, '2026-06-01', 13, 4.6],
      [newer, '2026-06-02', 14, 4.7],
    ] as const) {
      await query(
        `INSERT INTO category_ranks (app_id, country, date, category, rank) VALUES ($1::uuid, 'US', $2::date, 'Health', $3)`,
        [appId, date, rank],
      );
      await query(
        `INSERT INTO rating_snapshots (app_id, date, average, count, histogram) VALUES ($1::uuid, $2::date, $3, 100, NULL)`,
        [appId, date, average],
      );
    }

    // Listings and their changes, recorded by both on the 1st: the older app's stand.
    for (const [appId, day, title] of [
      [older, '2026-06-01', 'Older'],
      [newer, '2026-06-01', 'Newer'],
      [newer, '2026-06-05', 'Renamed'],
    ] as const) {
      await query(
        `INSERT INTO metadata_snapshots (id, app_id, country, captured_at, title, description, screenshots_count, has_video, price, currency, version)
         VALUES (gen_random_uuid(), $1::uuid, 'US', $2::timestamptz, $3, 'About', 5, false, '0.00', 'USD', '1.0')`,
        [appId, day, title],
      );
    }
    for (const [appId, after] of [
      [older, 'Older'],
      [newer, 'Newer'],
    ] as const) {
      await query(
        `INSERT INTO metadata_changes (id, app_id, country, field, before, after, changed_at) VALUES (gen_random_uuid(), $1::uuid, 'US', 'title', 'Was', $2, '2026-06-01')`,
        [appId, after],
      );
    }
    // One review stored by both (the older app's row and id stand), one by the newer alone.
    const reviewIds: string[] = [];
    for (const [appId, storeReviewId, title] of [
      [older, 'r1', 'Older copy'],
      [newer, 'r1', 'Newer copy'],
      [newer, 'r2', 'Only newer'],
    ] as const) {
      const [row] = await query<{ id: string }>(
        `INSERT INTO reviews (id, app_id, store_review_id, country, rating, title, body, author, reviewed_at, sentiment, topics)
         VALUES (gen_random_uuid(), $1::uuid, $2, 'US', 5, $3, 'Body', 'Someone', '2026-06-01T10:00:00Z', 0.5, '{}') RETURNING id::text`,
        [appId, storeReviewId, title],
      );
      reviewIds.push(row!.id);
    }

    await applyMigrations(url, () => {}, MIGRATIONS);

    const storeApps = await query<{ id: number; livemode: boolean; store_id: string }>(
      'SELECT id, livemode, store_id FROM store_apps ORDER BY livemode DESC, store_id',
    );
    expect(storeApps.map((row) => [row.livemode, row.store_id])).toEqual([
      [true, '111'],
      [true, '222'],
      [false, '111'],
    ]);
    const idOf = (livemode: boolean, storeId: string) =>
      storeApps.find((row) => row.livemode === livemode && row.store_id === storeId)!.id;
    const apps = await query<{ id: string; store_app_id: number }>('SELECT id::text, store_app_id FROM tracked_apps');
    expect(Object.fromEntries(apps.map((row) => [row.id, row.store_app_id]))).toEqual({
      [older]: idOf(true, '111'),
      [newer]: idOf(true, '111'),
      [follower]: idOf(true, '222'),
      [test]: idOf(false, '111'),
    });
    expect(await query('SELECT store_app_id FROM competitors')).toEqual([{ store_app_id: idOf(true, '111') }]);

    const moved = await query<{
      store_app_id: number;
      term_key: string;
      term: string;
      date: string;
      rank: number | null;
      discovered: boolean;
    }>(
      `SELECT store_app_id, term_key, term, to_char(date, 'YYYY-MM-DD') AS date, rank, discovered FROM app_ranks ORDER BY store_app_id, date, term_key`,
    );
    const live = idOf(true, '111');
    expect(moved).toEqual([
      { store_app_id: live, term_key: 'sleep', term: 'Sleep', date: '2026-06-01', rank: 4, discovered: true },
      { store_app_id: live, term_key: 'zen', term: 'zen', date: '2026-06-01', rank: 30, discovered: true },
      { store_app_id: live, term_key: 'sleep', term: 'Sleep', date: '2026-06-02', rank: null, discovered: false },
      { store_app_id: live, term_key: 'sleep', term: 'sleep', date: '2026-06-03', rank: 6, discovered: false },
      { store_app_id: live, term_key: 'sleep', term: 'sleep', date: '2026-07-15', rank: 12, discovered: true },
      {
        store_app_id: idOf(false, '111'),
        term_key: 'sleep',
        term: 'Sleep',
        date: '2026-06-01',
        rank: 77,
        discovered: true,
      },
    ]);
    expect(
      await query(
        `SELECT store_app_id, country, to_char(date, 'YYYY-MM-DD') AS date, rank FROM category_ranks ORDER BY date`,
      ),
    ).toEqual([
      { store_app_id: live, country: 'US', date: '2026-06-01', rank: 12 },
      { store_app_id: live, country: 'US', date: '2026-06-02', rank: 14 },
    ]);
    // A rating is the store's in the primary storefront of the app that observed it.
    expect(
      await query(
        `SELECT store_app_id, country, to_char(date, 'YYYY-MM-DD') AS date, average FROM rating_snapshots ORDER BY date`,
      ),
    ).toEqual([
      { store_app_id: live, country: 'US', date: '2026-06-01', average: 4.5 },
      { store_app_id: live, country: 'US', date: '2026-06-02', average: 4.7 },
    ]);
    expect(await query(`SELECT store_app_id, title FROM metadata_snapshots ORDER BY captured_at`)).toEqual([
      { store_app_id: live, title: 'Older' },
      { store_app_id: live, title: 'Renamed' },
    ]);
    expect(await query(`SELECT store_app_id, after FROM metadata_changes`)).toEqual([
      { store_app_id: live, after: 'Older' },
    ]);
    expect(
      await query(
        `SELECT id::text, store_app_id, title, to_char(observed_on, 'YYYY-MM-DD') AS observed_on FROM reviews ORDER BY store_review_id`,
      ),
    ).toEqual([
      { id: reviewIds[0], store_app_id: live, title: 'Older copy', observed_on: '2026-06-01' },
      { id: reviewIds[2], store_app_id: live, title: 'Only newer', observed_on: '2026-06-01' },
    ]);
    // Each month in a partition of its own, this month's and the next's made ahead.
    const partitions = (
      await query<{ name: string }>(
        `SELECT inhrelid::regclass::text AS name FROM pg_inherits WHERE inhparent = 'app_ranks'::regclass ORDER BY 1`,
      )
    ).map((row) => row.name);
    expect(partitions).toEqual(expect.arrayContaining(['app_ranks_2026_06', 'app_ranks_2026_07']));
    expect(
      await query(`SELECT to_regclass('keyword_ranks') AS kept, to_regclass('competitor_ranks') AS competitors`),
    ).toEqual([{ kept: null, competitors: null }]);
  });
});
