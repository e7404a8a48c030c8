import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { atTurnEnd, runTurnEndTasks } from './turn-end';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('atTurnEnd', () => {
  it('runs a task after the code that queued it, by the end of the turn', async () => {
    const order: string[] = [];
    atTurnEnd(() => order.push('task'));
    order.push('after queueing');
    await Promise.resolve();
    expect(order).toEqual(['after queueing']);
    await nextTurn();
    expect(order).toEqual(['after queueing', 'task']);
  });

  it('runs what a task queues in the same pass, after it', () => {
    const order: string[] = [];
    atTurnEnd(() => {
      order.push('bookkeeping');
      atTurnEnd(() => order.push('its log line'));
    });
    atTurnEnd(() => order.push('second answer'));
    runTurnEndTasks();
    expect(order).toEqual(['bookkeeping', 'second answer', 'its log line']);
  });

  it('runs each task once, a reader calling in from a task included', async () => {
    let runs = 0;
    atTurnEnd(() => {
      runs += 1;
      runTurnEndTasks();
    });
    runTurnEndTasks();
    runTurnEndTasks();
    await nextTurn();
    expect(runs).toBe(1);
  });

  it('runs the other tasks when one fails, then throws its error', () => {
    const ran: string[] = [];
    atTurnEnd(() => {
      throw new Error('a metric with a label it does not know');
    });
    atTurnEnd(() => ran.push('the next answer’s log line'));
    expect(() => runTurnEndTasks()).toThrow('a metric with a label it does not know');
    expect(ran).toEqual(['the next answer’s log line']);
    // Nothing is left to run twice.
    expect(() => runTurnEndTasks()).not.toThrow();
  });

  it('runs the waiting tasks when the process exits before the turn ends', () => {
    // A task queued just before process.exit, which leaves no turn to end: the 'exit' handler runs it.
    const script =
      "import { atTurnEnd } from './src/server/core/turn-end.ts'; atTurnEnd(() => process.stdout.write('ran at exit')); process.exit(0);";
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('ran at exit');
  });
});
