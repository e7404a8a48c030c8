// `npm run test:profile [-- <command …>]`: runs `npm test` (or the command given) and says where its CPU went, by
// kind of process. The suite is CPU-bound on two cores, so its length is its CPU; this is how to see which part to cut.
//
// Every process of the run is found by a marker in its environment (TEST_PROFILE_RUN), which every child inherits,
// those started detached included (a database, a deployment), whoever becomes their parent. /proc is read every
// second: a process's CPU is its last reading. Processes that live less than a second between two readings are not
// seen one by one; the total of the processes this one waited for (its children's rusage) counts them, and the
// difference is printed as "not seen". Linux only (/proc).
//
// Prints a table, and writes it with each second's load to test-results/profile.json. It also times fixed work before
// the run and after it (the CPU it took, so other work on the machine does not count): the same suite's CPU moved
// twofold between runs here with the host's speed, and that work says how fast the host was.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every Linux architecture Node runs on.
const SAMPLE_EVERY_MS = 1000;
const marker = `TEST_PROFILE_RUN=${randomUUID()}`;
const command = process.argv.slice(2);
if (command.length === 0) command.push(process.execPath, 'scripts/test.mjs');

/**
 * The kinds of process, first match wins. A PostgreSQL backend is its postmaster's kind (its own command line names
 * no folder); so is a Chromium renderer its browser's.
 */
const KINDS = [
  ['Chromium', (cmd) => /chrom(e|ium)/i.test(cmd)],
  ['PostgreSQL (Vitest)', (cmd) => /postgres.*(-D|--pgdata)\S*\s*\S*test-vitest/.test(cmd)],
  ['PostgreSQL (e2e server and embedded e2e tests)', (cmd) => /postgres.*(-D|--pgdata)\S*\s*\S*\.data\/e2e/.test(cmd)],
  [
    'PostgreSQL (others: external deployments, conformance)',
    (cmd) => /(^|\/)postgres(\s|$)|^postgres:|pg_ctl|initdb/.test(cmd),
  ],
  ['PgBouncer', (cmd) => /pgbouncer/.test(cmd)],
  ['Redis', (cmd) => /redis-server/.test(cmd)],
  ['Vitest', (cmd) => /vitest/.test(cmd)],
  ['Playwright (runner and workers)', (cmd) => /playwright/.test(cmd)],
  ['app: server (dist/main.mjs)', (cmd) => /dist\/main\.mjs/.test(cmd)],
  ['app: launcher (dist/start.mjs)', (cmd) => /dist\/start\.mjs/.test(cmd)],
  ['app: worker (dist/worker.mjs)', (cmd) => /dist\/worker\.mjs/.test(cmd)],
  ['operator CLI (dist/admin.mjs)', (cmd) => /dist\/admin\.mjs/.test(cmd)],
  ['MCP conformance suite', (cmd) => /conformance/.test(cmd)],
  ['Next.js build', (cmd) => /next\/dist\/bin\/next build|next build|turbopack/i.test(cmd)],
  ['server build (esbuild)', (cmd) => /esbuild|scripts\/build\.mjs/.test(cmd)],
  ['type check', (cmd) => /tsgo|typescript-native|tsc/.test(cmd)],
  ['layer check', (cmd) => /depcruise|dependency-cruiser/.test(cmd)],
  ['npm and npx', (cmd) => /(^|\/)(npm|npx)(\s|$)|npm-cli|npx-cli/.test(cmd)],
  ['other Node.js', (cmd) => /(^|\/)node(\s|$)/.test(cmd)],
];

const read = (file) => {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return null; // gone between the listing and the read
  }
};

/** utime, stime, cutime, cstime and the parent of /proc/<pid>/stat, or null. */
function statOf(pid) {
  const text = read(`/proc/${pid}/stat`);
  if (!text) return null;
  // The command's name is in parentheses and may hold spaces or parentheses itself: the fields start after the last.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { parent: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), started: fields[19] };
}

/** pid + start time → what is known of it; a pid reused by an unrelated process has another start time. */
const processes = new Map();
const unrelated = new Set();
const loads = [];
let previousCpu = null;

/** The machine's idle and total ticks since it started, all cores (/proc/stat's first line). */
function machineTicks() {
  const line = read('/proc/stat')?.split('\n')[0].trim().split(/\s+/).slice(1).map(Number) ?? [];
  return { idle: (line[3] ?? 0) + (line[4] ?? 0), total: line.reduce((sum, value) => sum + value, 0) };
}

function busyShare() {
  const { idle, total } = machineTicks();
  const share =
    previousCpu && total > previousCpu.total ? 1 - (idle - previousCpu.idle) / (total - previousCpu.total) : null;
  previousCpu = { idle, total };
  return share;
}

function sample() {
  const fresh = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (!stat) continue;
    const key = `${entry}:${stat.started}`;
    const known = processes.get(key);
    if (known) known.own = stat.own;
    else if (!unrelated.has(key)) fresh.push({ key, pid: entry, stat });
  }
  // A process is the run's when its environment has the marker, or when its parent is the run's: PostgreSQL's
  // backends write their status over their environment, and only their postmaster's still shows it.
  const pids = new Set([...processes.values()].map((known) => known.pid));
  const undecided = [];
  for (const candidate of fresh) {
    const environment = read(`/proc/${candidate.pid}/environ`);
    if (environment === null) continue;
    if (environment.split('\0').includes(marker)) track(candidate, pids);
    else undecided.push(candidate);
  }
  for (let added = true; added; ) {
    added = false;
    for (const candidate of undecided) {
      if (processes.has(candidate.key) || !pids.has(candidate.stat.parent)) continue;
      track(candidate, pids);
      added = true;
    }
  }
  for (const candidate of undecided) if (!processes.has(candidate.key)) unrelated.add(candidate.key);
  const [oneMinute] = os.loadavg();
  loads.push({ at: Math.round(performance.now() / 1000), load: oneMinute, busy: busyShare() });
}

function track(candidate, pids) {
  const cmd = (read(`/proc/${candidate.pid}/cmdline`) ?? '').split('\0').join(' ').trim();
  processes.set(candidate.key, {
    pid: Number(candidate.pid),
    parent: candidate.stat.parent,
    cmd,
    kind: null,
    own: candidate.stat.own,
  });
  pids.add(Number(candidate.pid));
}

/** A process's kind by its command line; a process that matches none takes its parent's (a backend, a renderer). */
function kindOf(known, byPid) {
  if (known.kind) return known.kind;
  const match = KINDS.find(([, test]) => test(known.cmd));
  const parent = byPid.get(known.parent);
  known.kind = match ? match[0] : parent && parent !== known ? kindOf(parent, byPid) : 'other';
  // A backend's command line ("postgres: user db …") matches the generic PostgreSQL kind: its postmaster knows which.
  if (
    match?.[0].startsWith('PostgreSQL (others') &&
    parent &&
    /PostgreSQL \((Vitest|e2e)/.test(kindOf(parent, byPid))
  ) {
    known.kind = kindOf(parent, byPid);
  }
  return known.kind;
}

/**
 * CPU seconds two fixed pieces of work take on this host now: a loop of arithmetic, and a JSON round trip of many
 * small objects (allocation and garbage collection, like much of the suite's Node work). The same on a host of the
 * same speed.
 */
function referenceSeconds() {
  const cpuOf = (work) => {
    const before = process.cpuUsage();
    work();
    const used = process.cpuUsage(before);
    return Number(((used.user + used.system) / 1e6).toFixed(2));
  };
  let sum = 0;
  const loop = cpuOf(() => {
    for (let index = 0; index < 300_000_000; index++) sum += index % 7;
  });
  if (sum < 0) throw new Error('unreachable: keeps the loop from being optimised away');
  const objects = cpuOf(() => {
    const list = Array.from({ length: 300_000 }, (_, id) => ({ id, name: `n${id}`, tags: ['a', 'b', String(id)] }));
    JSON.parse(JSON.stringify(list));
  });
  return { loop, objects };
}

const referenceBefore = referenceSeconds();
const started = performance.now();
const machineAtStart = machineTicks();
busyShare();
const timer = setInterval(sample, SAMPLE_EVERY_MS);
// E2E_CPU_REPORT: Playwright's CPU reporter (e2e/cpu-reporter.ts) says what each e2e test cost.
const child = spawn(command[0], command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, TEST_PROFILE_RUN: marker.split('=')[1], E2E_CPU_REPORT: '1' },
});
const status = await new Promise((resolve) => child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0))));
sample();
clearInterval(timer);
const wall = (performance.now() - started) / 1000;
const machineAtEnd = machineTicks();
const referenceAfter = referenceSeconds();
/** Every process's CPU on the machine meanwhile, the run's and any other work's. */
const machineCpu =
  (machineAtEnd.total - machineAtEnd.idle - (machineAtStart.total - machineAtStart.idle)) / TICKS_PER_SECOND;

const byPid = new Map([...processes.values()].map((known) => [known.pid, known]));
const table = new Map();
for (const known of processes.values()) {
  const kind = kindOf(known, byPid);
  const row = table.get(kind) ?? { kind, processes: 0, cpu: 0 };
  row.processes += 1;
  row.cpu += known.own / TICKS_PER_SECOND;
  table.set(kind, row);
}
const seen = [...table.values()].reduce((sum, row) => sum + row.cpu, 0);
const children = process.resourceUsage();
// resourceUsage() is this process's own; the waited-for descendants' total is in /proc/self/stat (cutime, cstime).
const self = read('/proc/self/stat');
const selfFields = self ? self.slice(self.lastIndexOf(')') + 2).split(' ') : [];
const waitedFor = (Number(selfFields[13] ?? 0) + Number(selfFields[14] ?? 0)) / TICKS_PER_SECOND;
const rows = [...table.values()].sort((a, b) => b.cpu - a.cpu);
const busy = loads.map((entry) => entry.busy).filter((value) => value !== null);
const summary = {
  command: command.join(' '),
  exitCode: status,
  node: process.version,
  cores: os.availableParallelism(),
  wallSeconds: Math.round(wall),
  cpuSecondsSeen: Math.round(seen),
  cpuSecondsOfWaitedForProcesses: Math.round(waitedFor),
  cpuSecondsOfTheMachine: Math.round(machineCpu),
  machineBusyShare: busy.length ? Number((busy.reduce((sum, value) => sum + value, 0) / busy.length).toFixed(2)) : null,
  peakLoad: Math.max(0, ...loads.map((entry) => entry.load)),
  referenceCpuSeconds: { before: referenceBefore, after: referenceAfter },
  byKind: rows.map((row) => ({ ...row, cpu: Math.round(row.cpu) })),
  topProcesses: [...processes.values()]
    .sort((a, b) => b.own - a.own)
    .slice(0, 40)
    .map((known) => ({ cpu: known.own / TICKS_PER_SECOND, kind: known.kind, cmd: known.cmd.slice(0, 300) })),
  profilerCpuSeconds: Number(((children.userCPUTime + children.systemCPUTime) / 1e6).toFixed(1)),
  loads,
};
mkdirSync('test-results', { recursive: true });
writeFileSync('test-results/profile.json', `${JSON.stringify(summary, null, 2)}\n`);

const width = Math.max(...rows.map((row) => row.kind.length), 20);
console.log(
  `\nCPU by kind of process (${command.join(' ')}: exit code ${status}, ${summary.wallSeconds} s wall, ${summary.cores} cores, Node ${process.version})`,
);
console.log(`${'kind'.padEnd(width)}  processes    CPU s  share`);
for (const row of rows) {
  console.log(
    `${row.kind.padEnd(width)}  ${String(row.processes).padStart(9)}  ${row.cpu.toFixed(0).padStart(7)}  ${((100 * row.cpu) / seen).toFixed(0).padStart(4)} %`,
  );
}
console.log(`${'seen, in all'.padEnd(width)}  ${String(processes.size).padStart(9)}  ${seen.toFixed(0).padStart(7)}`);
console.log(
  `Processes waited for (the run's children and what they reaped): ${waitedFor.toFixed(0)} CPU s; the difference with what was seen is processes shorter than a reading, less those left detached. The machine spent ${machineCpu.toFixed(0)} CPU s meanwhile, on this run and anything else; busy ${summary.machineBusyShare === null ? '?' : Math.round(100 * summary.machineBusyShare)} % on average, peak load ${summary.peakLoad.toFixed(1)}. Details: test-results/profile.json.`,
);
console.log(
  `The host's speed, as CPU s of fixed work (the less, the faster; compare runs at the same speed): a loop ${referenceBefore.loop} before the run and ${referenceAfter.loop} after, a JSON round trip ${referenceBefore.objects} and ${referenceAfter.objects}.`,
);
process.exit(status);
