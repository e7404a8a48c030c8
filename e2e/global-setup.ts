// Before any test: the e2e server's mail server (e2e/mailbox.ts) and the stores' stand-ins of connected store
// accounts (e2e/store-stand-ins.ts), for the whole run.
import { startMailbox } from './mailbox';
import { startStoreStandIns } from './store-stand-ins';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const [closeMailbox, closeStores] = await Promise.all([startMailbox(), startStoreStandIns()]);
  return async () => {
    await Promise.all([closeMailbox(), closeStores()]);
  };
}
