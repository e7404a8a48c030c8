// What a starting process is doing, said while it does it: a first start on a machine that has just booted reads
// hundreds of megabytes from a cold disk, and a silent minute looks like a hang.

/** How often a step still running says so. */
const PROGRESS_EVERY_MS = 5_000;

/** Runs `work`, saying what it is when it starts, every PROGRESS_EVERY_MS while it lasts, and how long it took. */
export async function announced<T>(log: (line: string) => void, doing: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  log(`${doing}…`);
  const timer = setInterval(() => log(`still ${doing} (${seconds()} s)`), PROGRESS_EVERY_MS);
  try {
    const result = await work();
    log(`${doing}: done in ${seconds()} s`);
    return result;
  } finally {
    clearInterval(timer);
  }
}
