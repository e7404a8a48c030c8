// The background work's polling loops (backfills, replies to send, store accounts to read, exports): a pass every
// interval, never two at once in a process (a pass still running when the next is due lets it go), and a stop that
// waits for the pass in progress, which the pass may cut short by asking whether the loop is stopping. A pass that
// throws is logged and the loop goes on: the next one tries again.
import { logError } from './log';

export function startPollingLoop(
  pass: (stopping: () => boolean) => Promise<void>,
  { intervalMs, failure, atOnce = false }: { intervalMs: number; failure: string; atOnce?: boolean },
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  const stopping = () => stopped;
  const tick = () => {
    if (running || stopped) return;
    running = pass(stopping)
      .catch((error: unknown) => logError(failure, error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  if (atOnce) tick();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
