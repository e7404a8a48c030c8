/** `promise`, or a rejection with `timedOut()` once `milliseconds` pass first (the work itself is not stopped). */
export function withTimeout<T>(promise: Promise<T>, milliseconds: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), milliseconds);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
