// With E2E_CPU_REPORT set (npm run test:profile sets it): the CPU each test cost, read from /proc (Linux). A worker
// runs one test at a time, and everything a test spends outside the shared e2e server is in its worker's process tree:
// the worker itself, its browser and renderers, and the processes the test starts (a launcher, the operator CLI, a
// deployment), whose time moves to the worker when they exit and it reaps them. So a test's CPU is the growth of its
// worker's tree from the test's start to its end; the e2e server's share is not in it. Writes the table to
// test-results/e2e-cpu.json and prints the costliest tests.
//
// Which process is which worker: Playwright numbers its worker processes in the order it starts them (a restarted
// worker takes the next number), and says a test's number; the runner's children are read often enough to see each
// worker before its first test ends.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

const TICKS_PER_SECOND = 100;
const SHOWN = 25;

interface ProcessStat {
  pid: number;
  parent: number;
  /** Its own CPU, and its waited-for children's (ticks). */
  own: number;
  reaped: number;
}

function processes(): Map<number, ProcessStat> {
  const all = new Map<number, ProcessStat>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      all.set(Number(entry), { pid: Number(entry), parent: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** The runner's worker processes (by start time, then pid), as /proc lists them now. */
function liveWorkers(): { pid: number; started: number }[] {
  const workers: { pid: number; started: number }[] = [];
  for (const stat of processes().values()) {
    if (stat.parent !== process.pid) continue;
    try {
      if (!readFileSync(`/proc/${stat.pid}/cmdline`, 'latin1').includes('workerProcessEntry')) continue;
      const text = readFileSync(`/proc/${stat.pid}/stat`, 'latin1');
      workers.push({ pid: stat.pid, started: Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]) });
    } catch {
      // gone meanwhile
    }
  }
  return workers.sort((a, b) => a.started - b.started || a.pid - b.pid);
}

/**
 * The CPU of a process and of every live descendant, with what each reaped of its children gone (ticks): a renderer
 * that exits leaves its time to its zygote, a launcher's to the worker.
 */
function treeCpu(root: number): number {
  const all = processes();
  const children = new Map<number, number[]>();
  for (const stat of all.values()) children.set(stat.parent, [...(children.get(stat.parent) ?? []), stat.pid]);
  let total = 0;
  const visit = (pid: number) => {
    const stat = all.get(pid);
    if (!stat) return;
    total += stat.own + stat.reaped;
    for (const child of children.get(pid) ?? []) visit(child);
  };
  visit(root);
  return total;
}

export default class CpuReporter implements Reporter {
  private readonly enabled = process.platform === 'linux' && !!process.env.E2E_CPU_REPORT;
  private readonly started = new Map<TestResult, { pid: number; cpu: number }>();
  private readonly rows: { test: string; project: string; worker: number; cpuSeconds: number; wallSeconds: number }[] = [];
  /** Worker processes in the order they started: a test's workerIndex is its position here. */
  private readonly workers: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  onBegin(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => this.seeWorkers(), 200);
    this.timer.unref();
  }

  private seeWorkers(): void {
    for (const worker of liveWorkers()) if (!this.workers.includes(worker.pid)) this.workers.push(worker.pid);
  }

  onTestBegin(_test: TestCase, result: TestResult): void {
    if (!this.enabled) return;
    this.seeWorkers();
    const pid = this.workers[result.workerIndex];
    if (pid !== undefined) this.started.set(result, { pid, cpu: treeCpu(pid) });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const start = this.started.get(result);
    if (!start) return;
    this.started.delete(result);
    this.rows.push({
      test: `${test.location.file.replace(`${process.cwd()}/`, '')}:${test.location.line} › ${test.titlePath().slice(3).join(' › ')}`,
      project: test.parent.project()?.name ?? '',
      worker: start.pid,
      cpuSeconds: Math.max(0, treeCpu(start.pid) - start.cpu) / TICKS_PER_SECOND,
      wallSeconds: result.duration / 1000,
    });
  }

  onEnd(_result: FullResult): void {
    if (!this.enabled) return;
    clearInterval(this.timer);
    const rows = this.rows.sort((a, b) => b.cpuSeconds - a.cpuSeconds);
    writeFileSync('test-results/e2e-cpu.json', `${JSON.stringify(rows, null, 2)}\n`);
    const total = rows.reduce((sum, row) => sum + row.cpuSeconds, 0);
    console.log(`\nCPU of the tests, outside the e2e server: ${total.toFixed(0)} s in all; the costliest (test-results/e2e-cpu.json has every test):`);
    for (const row of rows.slice(0, SHOWN)) console.log(`${row.cpuSeconds.toFixed(1).padStart(6)} s  ${row.project.padEnd(11)} ${row.test.slice(0, 140)}`);
  }
}
