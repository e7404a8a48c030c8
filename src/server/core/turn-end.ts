// Work an answer leaves behind that its client does not wait for: its metrics, its log line, the key's request log.
// It runs at the end of the event loop's turn (setImmediate), after every answer the turn wrote. Under load one turn
// answers many requests: each answer then goes out without the bookkeeping of the others in between, and the
// bookkeeping runs together, its code warm.
//
// Nothing is lost on an exit that runs its 'exit' handlers (a normal one, SIGTERM or SIGINT through the server's
// shutdown, an uncaught exception): the waiting tasks run first. Killed outright (SIGKILL, the out-of-memory killer), a
// process loses the bookkeeping of its last turn, as it loses the request log's lines of that turn (./log.ts).

type Task = () => void;

let waiting: Task[] = [];
let running = false;

// One 'exit' listener per process, whatever number of times this module is loaded (each test file loads its own).
const runners = ((process as unknown as Record<symbol, Set<() => void>>)[Symbol.for('aso.turn-end-runners')] ??=
  (() => {
    const set = new Set<() => void>();
    process.on('exit', () => set.forEach((run) => run()));
    return set;
  })());
runners.add(() => runTurnEndTasks());

/** Runs `task` at the end of this turn of the event loop, after the answers written in it. */
export function atTurnEnd(task: Task): void {
  if (waiting.push(task) === 1) setImmediate(runTurnEndTasks);
}

/**
 * Runs the waiting tasks now, those they queue included (a log line's write follows the bookkeeping that wrote it). The
 * end of the turn does it; a reader of the metrics or of the request log does it first, so that it sees every answer.
 */
export function runTurnEndTasks(): void {
  // Called by a task: the run under way reaches what it queued.
  if (running) return;
  running = true;
  let failure: { error: unknown } | undefined;
  try {
    for (let index = 0; index < waiting.length; index++) {
      try {
        waiting[index]!();
      } catch (error) {
        // The others still run; the first failure is then thrown, as it was when the bookkeeping ran in the handler.
        failure ??= { error };
      }
    }
  } finally {
    waiting = [];
    running = false;
  }
  if (failure) throw failure.error;
}
