// `npm run bench:growth`: how the store facts' model grows with customers (issue 62). Three worlds of 1, 100 and
// 1,000 accounts, each a database of its own in one embedded PostgreSQL (.data/bench-growth), each built by
// ./bench-growth-scale.ts: a Zipf mix of shared apps, terms, storefronts and competitors, a year of ranks, and one
// day's refresh of every app against a stand-in of Apple's endpoints. Prints, per world:
// - the day's store calls against the distinct facts (searches: distinct storefront and term; lookups, chart and
//   reviews calls: distinct store app and storefront), and what observing each account on its own would have asked;
// - the p50 and p99 of a 365-day keyword history read, measured in rounds that take the worlds in turn, so that the
//   machine's load falls on each alike; the ratio of each world's p99 to the 1-account world's is the figure (aim:
//   within 1.5× at 1,000 accounts).
// The worlds are built once and kept (`-- --fresh` builds them again). The JSON report goes to
// .data/bench-growth-report.json. GROWTH_ROUNDS (default 3) and GROWTH_READS (default 400 per round) set the reads.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

const SCALES = [1, 100, 1_000];
const fresh = process.argv.includes('--fresh');
const dataDir = path.resolve('.data/bench-growth');
const reportPath = path.resolve('.data/bench-growth-report.json');
if (fresh) await rm(dataDir, { recursive: true, force: true });
await mkdir(dataDir, { recursive: true });
process.env.DATA_DIR = dataDir;
delete process.env.DATABASE_URL;
const log = (line: string) => console.error(`[bench:growth] ${line}`);

const { ensureDatabase } = await import('../src/server/db/embedded');
const { applyMigrations } = await import('../src/server/db/migrate');
const database = await ensureDatabase({ log });
const urlOf = (scale: number) => {
  const url = new URL(database.url);
  url.pathname = `/growth_${scale}`;
  return url.toString();
};

/** Runs ./bench-growth-scale.ts on a world's database; its answer is the last line it prints. */
function runScale(mode: 'build' | 'read', scale: number): unknown {
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/bench-growth-scale.ts', mode, String(scale)], {
    env: { ...process.env, DATABASE_URL: urlOf(scale), LOG_LEVEL: 'error' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (child.status !== 0) throw new Error(`bench-growth-scale ${mode} ${scale} exited with ${child.status}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1)!);
}

interface Built {
  accounts: number;
  trackedKeywords: number;
  storeApps: number;
  rankRows: number;
  rankTableMb: number;
  historySeconds: number;
  refresh: {
    seconds: number;
    calls: { search: number; lookup: number; reviews: number; chart: number };
    distinctSearches: number;
    distinctObservations: number;
    perAccountSearches: number;
    perAccountObservations: number;
    rankRowsAdded: number;
    searchAnswersAdded: number;
  };
}

const built: Built[] = [];
const maintenance = new pg.Client({ connectionString: database.url });
await maintenance.connect();
try {
  for (const scale of SCALES) {
    const file = path.join(dataDir, `world-${scale}.json`);
    if (!existsSync(file)) {
      log(`building the world of ${scale} account${scale === 1 ? '' : 's'}`);
      await maintenance.query(`DROP DATABASE IF EXISTS growth_${scale}`);
      await maintenance.query(`CREATE DATABASE growth_${scale}`);
      await applyMigrations(urlOf(scale));
      await writeFile(file, JSON.stringify(runScale('build', scale)));
    }
    // A world kept from an earlier run gets the migrations since.
    await applyMigrations(urlOf(scale));
    // As autovacuum keeps a table written a day at a time: its pages all-visible, which index-only scans need.
    const world = new pg.Client({ connectionString: urlOf(scale) });
    await world.connect();
    try {
      await world.query('VACUUM (ANALYZE)');
      const { rows } = await world.query<{ mb: number }>(
        `SELECT (sum(pg_total_relation_size(inhrelid)) / 1048576)::int AS mb FROM pg_inherits WHERE inhparent = 'app_ranks'::regclass`,
      );
      // Its size now, indexes included: the migrations since it was built may have changed them.
      built.push({ ...(JSON.parse(readFileSync(file, 'utf8')) as Built), rankTableMb: rows[0]!.mb });
    } finally {
      await world.end();
    }
  }
} finally {
  await maintenance.end();
}

const rounds = Number(process.env.GROWTH_ROUNDS ?? 3);
const times = new Map<number, number[]>(SCALES.map((scale) => [scale, []]));
for (let round = 1; round <= rounds; round++) {
  for (const scale of round % 2 ? SCALES : [...SCALES].reverse()) {
    log(`round ${round}: 365-day keyword history reads, ${scale} account${scale === 1 ? '' : 's'}`);
    times.get(scale)!.push(...(runScale('read', scale) as { times: number[] }).times);
  }
}
await database.stop();

const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const reads = SCALES.map((scale) => ({
  accounts: scale,
  reads: times.get(scale)!.length,
  p50Ms: quantile(times.get(scale)!, 0.5),
  p99Ms: quantile(times.get(scale)!, 0.99),
}));
const baseP99 = reads[0]!.p99Ms;

console.log('\nA day’s store calls (stand-in of Apple’s endpoints) against the distinct facts');
console.log(
  '| accounts | keywords | store apps | searches | distinct (storefront, term) | per-account model | lookups | distinct (store app, storefront) | per-account model | rank rows added | search answers added |',
);
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const world of built) {
  const { refresh } = world;
  console.log(
    `| ${world.accounts} | ${world.trackedKeywords} | ${world.storeApps} | ${refresh.calls.search} | ${refresh.distinctSearches} | ${refresh.perAccountSearches} | ${refresh.calls.lookup} | ${refresh.distinctObservations} | ${refresh.perAccountObservations} | ${refresh.rankRowsAdded} | ${refresh.searchAnswersAdded} |`,
  );
}
console.log('\n365-day keyword history reads (the service, in rounds taking the worlds in turn)');
console.log('| accounts | rank rows | app_ranks size | reads | p50 | p99 | p99 ÷ 1 account |');
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const [index, read] of reads.entries()) {
  const world = built[index]!;
  console.log(
    `| ${read.accounts} | ${world.rankRows} | ${world.rankTableMb} MB | ${read.reads} | ${read.p50Ms.toFixed(2)} ms | ${read.p99Ms.toFixed(2)} ms | ${(read.p99Ms / baseP99).toFixed(2)}× |`,
  );
}
const callsFollowFacts = built.every(
  (world) =>
    world.refresh.calls.search === world.refresh.distinctSearches &&
    world.refresh.calls.lookup === world.refresh.distinctObservations,
);
const readsHold = reads.every((read) => read.p99Ms / baseP99 <= 1.5);
console.log(
  `\nstore calls = distinct facts in every world: ${callsFollowFacts ? 'yes' : 'NO'}; read p99 within 1.5× of 1 account's: ${readsHold ? 'yes' : 'NO'}`,
);
await writeFile(reportPath, JSON.stringify({ worlds: built, reads, callsFollowFacts, readsHold }, null, 2));
log(`report: ${path.relative(process.cwd(), reportPath)}`);
process.exit(callsFollowFacts ? 0 : 1);
