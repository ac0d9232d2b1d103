import { Writable } from 'node:stream';
import { pino } from 'pino';
import type { Logger } from '../logger.ts';
import { eventually } from './eventually.ts';
import { mailpit, type ReceivedMail } from './mailpit.ts';

/**
 * Where a test reads the mails a test portal sends: Mailpit when CI runs it (MAILPIT_URL),
 * else the log mailer's own lines (no SMTP_URL: every mail is written to the log), caught by
 * the logger given to the portal. The same questions either way.
 */
export interface TestMailbox {
  /** Env for the portal (SMTP_URL on Mailpit; nothing for the log mailer). */
  env: Record<string, string>;
  /** The logger to start the portal with (undefined: its own). */
  logger: Logger | undefined;
  /** 'mailpit' or 'log': which side a test ran against. */
  kind: 'mailpit' | 'log';
  messagesTo(address: string): Promise<Pick<ReceivedMail, 'Subject' | 'Text' | 'To'>[]>;
  waitForMail(address: string, count?: number, timeoutMs?: number): Promise<Pick<ReceivedMail, 'Subject' | 'Text' | 'To'>>;
}

interface LoggedMail { to: string; subject: string; text: string }

export function testMailbox(): TestMailbox {
  const server = mailpit();
  if (server) return { env: { SMTP_URL: server.smtpUrl }, logger: undefined, kind: 'mailpit', messagesTo: server.messagesTo, waitForMail: server.waitForMail };
  const mails: LoggedMail[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.includes('"mail"')) continue;
        try {
          const entry = JSON.parse(line) as { mail?: LoggedMail };
          if (entry.mail?.to) mails.push(entry.mail);
        } catch { /* not a mail line */ }
      }
      done();
    },
  });
  const logger = pino({ name: 'portal', level: 'info', base: { service: 'portal' } }, sink);
  const messagesTo = async (address: string) => mails.filter((m) => m.to.toLowerCase() === address.toLowerCase())
    .map((m) => ({ Subject: m.subject, Text: m.text, To: [{ Name: '', Address: m.to }] }));
  return {
    env: {}, logger, kind: 'log', messagesTo,
    async waitForMail(address, count = 1, timeoutMs = 15_000) {
      let found: Awaited<ReturnType<typeof messagesTo>> = [];
      await eventually(async () => (found = await messagesTo(address)).length >= count, timeoutMs, 100);
      return found[count - 1]!;
    },
  };
}
