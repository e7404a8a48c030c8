// `npm run worker`: the app's background work alone (the daily refresh schedule and webhook deliveries), for
// deployments that run web processes with SCHEDULER=false and workers apart. Same database rules as `npm start`:
// DATABASE_URL, or the embedded cluster under DATA_DIR (joined when running). Any number may run at once.
import { disconnectDb } from '../src/server/db';
import { keepDatabaseThroughSignals } from '../src/server/db/embedded';
import { startBackgroundWork } from '../src/server/runtime/background';
import { prepareDatabase } from '../src/server/runtime/prepare';

const log = (line: string) => console.error(`[worker] ${line}`);
let stopWorker = (code: number): void => process.exit(code);
// When the worker started the embedded cluster itself and it cannot be started again: exit non-zero.
const database = await prepareDatabase(log, {
  onGiveUp: (error) => {
    log(`${error.message}: stopping`);
    stopWorker(1);
  },
});
const background = await startBackgroundWork(database.url, log);
log('refresh schedule and webhook deliveries running');

keepDatabaseThroughSignals();
async function shutdown(code: number): Promise<never> {
  await background.stop();
  await disconnectDb();
  await database.stop().catch(() => {});
  process.exit(code);
}
stopWorker = (code) => void shutdown(code);
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
