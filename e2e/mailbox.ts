// The e2e server's mail server (its SMTP_URL): a local SMTP server, started for the whole run by the global setup,
// that keeps each message it receives as a file of the recipient's address, where a test reads it (issue 40: the
// invitation followed from the received mail).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { startMailCatcher } from '../test/mail-catcher';
import { MAILBOX_PORT } from '../playwright.config';

const MAILBOX_DIR = '.data/e2e-mail';

export async function startMailbox(): Promise<() => Promise<void>> {
  rmSync(MAILBOX_DIR, { recursive: true, force: true });
  mkdirSync(MAILBOX_DIR, { recursive: true });
  const catcher = await startMailCatcher(MAILBOX_PORT, (mail) => {
    for (const recipient of mail.to) writeFileSync(path.join(MAILBOX_DIR, `${recipient}.eml`), mail.text);
  });
  return catcher.close;
}

/** The last mail sent to `address`, once it has arrived. */
export async function mailTo(address: string): Promise<string> {
  const file = path.join(MAILBOX_DIR, `${address}.eml`);
  let text = '';
  await expect
    .poll(() => {
      try {
        text = readFileSync(file, 'utf8');
      } catch {
        text = '';
      }
      return text.length > 0;
    })
    .toBe(true);
  return text;
}
