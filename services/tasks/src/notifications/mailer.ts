import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** Only an address is mailed to: identity keeps no email field, so a username that is one is used. */
export const emailAddressOf = (username: string): string | null => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(username) ? username : null);

/** Reminder and overdue emails through SMTP_URL (nodemailer); null when unset: nothing is sent, nothing fails. */
export function createMailer(smtpUrl: string | undefined, from: string): Mailer | null {
  if (!smtpUrl) return null;
  const transport = nodemailer.createTransport(smtpUrl);
  return {
    async send(mail) {
      await transport.sendMail({ from, ...mail });
    },
    close: () => transport.close(),
  };
}
