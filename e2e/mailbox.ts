// The e2e server's mail server (its SMTP_URL): a local SMTP server, started for the whole run by the global setup,
// that keeps each message it receives as a file of the recipient's address, where a test reads it (issue 40: the
// invitation followed from the received mail).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from '@playwright/test';
import { SMTPServer } from 'smtp-server';
import { MAILBOX_PORT } from '../playwright.config';

export const MAILBOX_DIR = '.data/e2e-mail';

/** A message as sent: its quoted-printable body decoded (long lines come folded). */
function decoded(raw: string): string {
  return Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
}

export async function startMailbox(): Promise<() => Promise<void>> {
  rmSync(MAILBOX_DIR, { recursive: true, force: true });
  mkdirSync(MAILBOX_DIR, { recursive: true });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
      stream.on('end', () => {
        for (const recipient of session.envelope.rcptTo) writeFileSync(path.join(MAILBOX_DIR, `${recipient.address}.eml`), decoded(raw));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(MAILBOX_PORT, '127.0.0.1', resolve));
  return () => new Promise<void>((resolve) => server.close(resolve));
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
    }, { timeout: 30_000 })
    .toBe(true);
  return text;
}
