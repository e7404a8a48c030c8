// A local SMTP server that catches the app's mail (smtp-server), for Vitest and for the e2e server's run alike: each
// message as sent, its quoted-printable body decoded (nodemailer folds long lines), with its recipients.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  to: string[];
  text: string;
}

function decoded(raw: string): string {
  return Buffer.from(
    raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** Listens on `port` (0: any) of loopback; `onMail` gets each message. */
export async function startMailCatcher(
  port: number,
  onMail: (mail: CaughtMail) => void,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('latin1')));
      stream.on('end', () => {
        onMail({ to: session.envelope.rcptTo.map((recipient) => recipient.address), text: decoded(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(resolve)),
  };
}
