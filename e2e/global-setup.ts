// Before any test: the e2e server's mail server (e2e/mailbox.ts), for the whole run.
import { startMailbox } from './mailbox';

export default async function globalSetup(): Promise<() => Promise<void>> {
  return startMailbox();
}
