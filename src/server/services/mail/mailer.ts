// The mail the app sends (invitations), through nodemailer over the SMTP server of SMTP_URL. Without one (the embedded
// default) nothing is sent and the caller says so: the dashboard then shows the link to pass on by hand.
import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '@/server/core/config';
import { pageOrigin } from '@/server/core/origin';
import { logError } from '@/server/core/log';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type MailOutcome = 'sent' | 'not-configured' | 'failed';

let transport: { url: string; transporter: Transporter } | null = null;

/** How long the server may take to connect, greet and answer: a request that sends mail waits no longer. */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

function transporterFor(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport({ url, ...TIMEOUTS }) };
  return transport.transporter;
}

/** The sender: MAIL_FROM, or no-reply at the app's own host. */
function mailSender(): string {
  return config().MAIL_FROM ?? `ASO Analytics <no-reply@${new URL(pageOrigin()).hostname}>`;
}

/** Sends one mail; a server that refuses it or does not answer is logged and reported, never thrown. */
export async function sendMail(mail: Mail): Promise<MailOutcome> {
  const url = config().SMTP_URL;
  if (!url) return 'not-configured';
  try {
    await transporterFor(url).sendMail({ from: mailSender(), to: mail.to, subject: mail.subject, text: mail.text });
    return 'sent';
  } catch (error) {
    logError('mail not sent', error, { subject: mail.subject });
    return 'failed';
  }
}
