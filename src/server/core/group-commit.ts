// Group commit: the asks of a process's concurrent requests for one statement go together. An ask that finds no
// statement on its way goes at once, so an idle process adds no wait; while one is on its way, the asks that arrive
// queue and go together in the next: one round trip and one commit for many requests. The charges
// (src/server/services/metering/credits.ts) and the credential reads (src/server/db/credential-statements.ts) go so.

/**
 * `run` answers a batch of asks, one answer each, in their order; a batch carries at most `maxAsks`. A batch that
 * fails is run again an ask at a time, so that whatever failed it fails its own caller only.
 */
export function groupCommit<Ask, Answer>(
  run: (asks: Ask[]) => Promise<Answer[]>,
  maxAsks: number,
): (ask: Ask) => Promise<Answer> {
  interface Waiting {
    ask: Ask;
    resolve: (answer: Answer) => void;
    reject: (error: unknown) => void;
  }
  const waiting: Waiting[] = [];
  let running = false;

  async function settle(batch: Waiting[]): Promise<void> {
    let answers: Answer[];
    try {
      answers = await run(batch.map((each) => each.ask));
    } catch (error) {
      if (batch.length === 1) return batch[0]!.reject(error);
      await Promise.all(batch.map((each) => settle([each])));
      return;
    }
    batch.forEach((each, index) => each.resolve(answers[index]!));
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (waiting.length) await settle(waiting.splice(0, maxAsks));
    } finally {
      running = false;
    }
  }

  return (ask) =>
    new Promise((resolve, reject) => {
      waiting.push({ ask, resolve, reject });
      if (!running) void drain();
    });
}
