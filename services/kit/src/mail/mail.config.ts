import { env, field } from '../config.ts';

/** The mail fields every service that sends e-mail adds to its own config spec. */
export const mailConfigSpec = {
  smtpUrl: field('SMTP_URL', env.optionalString(), 'SMTP server for e-mails (smtp://user:pass@host:port, smtps:// for TLS); unset writes them to the log instead'),
  mailFrom: field('SMTP_FROM', env.string('Ledgerline <no-reply@ledgerline.invalid>'), 'sender of e-mails; a firm\'s mails go out as "<firm> via <this name>" from the same address'),
};

export interface MailConfig {
  smtpUrl?: string | undefined;
  mailFrom: string;
}
