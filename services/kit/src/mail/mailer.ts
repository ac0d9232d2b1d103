import nodemailer from 'nodemailer';
import type { Logger } from '../logger.ts';
import type { MailConfig } from './mail.config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The firm the mail speaks for: it names the sender ("Acme Tax via Ledgerline"). */
  firmName?: string;
}

export interface Mailer {
  /** True when mails reach an SMTP server; false when they are only written to the log. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** `Name <address>` or a bare address, split; the address is what every firm's mail is sent from. */
export function parseSender(from: string): { name: string; address: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  return match ? { name: match[1]!.trim(), address: match[2]!.trim() } : { name: '', address: from.trim() };
}

/** The sender of a mail: the configured one, or for a firm "<firm> via <configured name>" from the same address. */
export function senderOf(configuredFrom: string, firmName: string | undefined): { name: string; address: string } {
  const sender = parseSender(configuredFrom);
  if (!firmName) return sender;
  return { name: sender.name ? `${firmName} via ${sender.name}` : firmName, address: sender.address };
}

/**
 * DESIGN §8 mail: one mailer for every service, through nodemailer to `SMTP_URL`. Without
 * one (the embedded default on a laptop) a mail is written to the log, whole, so a sign-in
 * code can still be read there; the service says so once at start.
 */
export function createMailer(config: MailConfig, logger: Logger): Mailer {
  if (!config.smtpUrl) {
    logger.warn('SMTP_URL is not set: e-mails are written to this log instead of being sent');
    return {
      delivers: false,
      async send(mail) {
        const from = senderOf(config.mailFrom, mail.firmName);
        logger.info({ mail: { from: `${from.name} <${from.address}>`, to: mail.to, subject: mail.subject, text: mail.text } }, 'e-mail (not sent: no SMTP_URL)');
      },
      close() {},
    };
  }
  const transport = nodemailer.createTransport(config.smtpUrl);
  return {
    delivers: true,
    async send(mail) {
      await transport.sendMail({ from: senderOf(config.mailFrom, mail.firmName), to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
    },
    close: () => transport.close(),
  };
}
