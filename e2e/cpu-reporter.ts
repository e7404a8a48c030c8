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

/** A process's own CPU and its waited-for children's (ticks), or null when it is gone. */
function cpuOf(pid: number): number | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  } catch {
    return null;
  }
}

/** A process's children, from each of its threads' list (Linux's /proc/<pid>/task/<tid>/children). */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((thread) => {
      try {
        return readFileSync(`/proc/${pid}/task/${thread}/children`, 'latin1').split(' ').filter(Boolean).map(Number);
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/** The runner's worker processes (by start time, then pid), as /proc lists them now. */
function liveWorkers(): { pid: number; started: number }[] {
  const workers: { pid: number; started: number }[] = [];
  for (const pid of childrenOf(process.pid)) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'latin1').includes('workerProcessEntry')) continue;
      const text = readFileSync(`/proc/${pid}/stat`, 'latin1');
      workers.push({ pid, started: Number(text.slice(text.lastIndexOf(')') + 2).split(' ')[19]) });
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
function treeCpu(root: number): number | null {
  if (cpuOf(root) === null) return null;
  let total = 0;
  const pending = [root];
  while (pending.length) {
    const pid = pending.pop()!;
    total += cpuOf(pid) ?? 0;
    pending.push(...childrenOf(pid));
  }
  return total;
}

export default class CpuReporter implements Reporter {
  private readonly enabled = process.platform === 'linux' && !!process.env.E2E_CPU_REPORT;
  private readonly started = new Map<TestResult, { pid: number; cpu: number }>();
  /** cpuSeconds null: the worker had exited by the time its last test's end was reported. */
  private readonly rows: {
    test: string;
    project: string;
    worker: number;
    cpuSeconds: number | null;
    wallSeconds: number;
  }[] = [];
  /** Worker processes in the order they started: a test's workerIndex is its position here. */
  private readonly workers: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  onBegin(): void {
    if (!this.enabled) return;
    this.timer = setInterval(() => this.seeWorkers(), 1000);
    this.timer.unref();
  }

  private seeWorkers(): void {
    for (const worker of liveWorkers()) if (!this.workers.includes(worker.pid)) this.workers.push(worker.pid);
  }

  onTestBegin(_test: TestCase, result: TestResult): void {
    if (!this.enabled) return;
    this.seeWorkers();
    const pid = this.workers[result.workerIndex];
    const cpu = pid === undefined ? null : treeCpu(pid);
    if (pid !== undefined && cpu !== null) this.started.set(result, { pid, cpu });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const start = this.started.get(result);
    if (!start) return;
    this.started.delete(result);
    this.rows.push({
      test: `${test.location.file.replace(`${process.cwd()}/`, '')}:${test.location.line} › ${test.titlePath().slice(3).join(' › ')}`,
      project: test.parent.project()?.name ?? '',
      worker: start.pid,
      cpuSeconds: ((end) => (end === null ? null : Math.max(0, end - start.cpu) / TICKS_PER_SECOND))(
        treeCpu(start.pid),
      ),
      wallSeconds: result.duration / 1000,
    });
  }

  onEnd(_result: FullResult): void {
    if (!this.enabled) return;
    clearInterval(this.timer);
    const rows = this.rows.sort((a, b) => (b.cpuSeconds ?? 0) - (a.cpuSeconds ?? 0));
    writeFileSync('test-results/e2e-cpu.json', `${JSON.stringify(rows, null, 2)}\n`);
    const total = rows.reduce((sum, row) => sum + (row.cpuSeconds ?? 0), 0);
    const unread = rows.filter((row) => row.cpuSeconds === null).length;
    console.log(
      `\nCPU of the tests, outside the e2e server: ${total.toFixed(0)} s in all${unread ? ` (${unread} not read: their worker had exited)` : ''}; the costliest (test-results/e2e-cpu.json has every test):`,
    );
    for (const row of rows.slice(0, SHOWN))
      console.log(
        `${(row.cpuSeconds ?? 0).toFixed(1).padStart(6)} s  ${row.project.padEnd(11)} ${row.test.slice(0, 140)}`,
      );
  }
}
